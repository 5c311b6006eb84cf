// The two roles of a member, as the console describes them (docs/console.md, Roles).
export type Role = "admin" | "support";

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  support: "reads everything, controls runs, resolves reviews, uses the test console",
  admin: "everything support does, plus keys, agents and members",
};

export const ROLES: { value: Role; label: string }[] = (["support", "admin"] as const).map((value) => ({
  value,
  label: `${value === "admin" ? "Admin" : "Support"}: ${ROLE_DESCRIPTIONS[value]}`,
}));
