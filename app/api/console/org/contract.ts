import { SwitchOrgBody } from "@/lib/orgs/schemas";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/org",
  auth: "console",
  body: SwitchOrgBody,
});
