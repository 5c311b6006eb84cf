// Auth.js (the console's sign-in machinery): its own handlers, in front of which lib/http/auth.ts
// refuses what Auth.js would answer with a 500. Private: not in the OpenAPI document.
import { route } from "@/lib/http/contract";

export const GET = route({ method: "GET", path: "/api/auth/[...nextauth]", auth: "consoleOpen" });
export const POST = route({ method: "POST", path: "/api/auth/[...nextauth]", auth: "consoleOpen" });
