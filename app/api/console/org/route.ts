// Switches the organization the dashboard works in (a member of several has a switcher).
import { cookies } from "next/headers";
import { ApiError } from "@/lib/errors";
import { ORG_COOKIE, withConsole } from "@/lib/http/console";
import { SwitchOrgBody } from "@/lib/orgs/schemas";

export const POST = withConsole({ body: SwitchOrgBody }, async ({ user, body, req }) => {
  const target = user.organizations.find((o) => o.organization_id === body.organization_id);
  if (!target) throw new ApiError("organization_not_found", "Organization not found.");
  (await cookies()).set(ORG_COOKIE, target.organization_id, {
    httpOnly: true,
    sameSite: "lax",
    secure: new URL(req.url).protocol === "https:",
    path: "/",
  });
  return target;
});
