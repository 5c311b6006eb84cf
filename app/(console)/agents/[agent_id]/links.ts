// The test console's inline links.
export const linkClass = "font-medium text-indigo-700 underline-offset-2 hover:underline";
