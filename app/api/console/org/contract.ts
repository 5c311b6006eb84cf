import { Role, SwitchOrgBody } from "@/lib/orgs/schemas";
import { CONSOLE_WRITE_ERRORS, JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { z } from "zod";
import { route } from "@/lib/http/contract";

/** The organization the console now works in, with the user's role there. */
const ChosenOrganization = z.strictObject({ organization_id: z.string(), name: z.string(), role: Role });

export const POST = route({
  method: "POST",
  path: "/api/console/org",
  auth: "console",
  responses: { 200: ChosenOrganization },
  errors: [...CONSOLE_WRITE_ERRORS, ...JSON_BODY_ERRORS, "organization_not_found"],
  body: SwitchOrgBody,
});
