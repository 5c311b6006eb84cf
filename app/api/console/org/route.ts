// Switches the organization the console works in (a member of several has a switcher).
import { ApiError } from "@/lib/errors";
import { withConsole } from "@/lib/http/console";
import { chooseOrganization } from "@/lib/http/org-cookie";
import * as contract from "./contract";

export const POST = withConsole(contract.POST, async ({ user, body, req }) => {
  const target = user.organizations.find((o) => o.organization_id === body.organization_id);
  if (!target) throw new ApiError("organization_not_found", "Organization not found.");
  await chooseOrganization(target.organization_id, req);
  return target;
});
