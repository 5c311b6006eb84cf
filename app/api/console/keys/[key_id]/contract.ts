import { AccessKeyRecord } from "@/lib/keys/schemas";
import { CONSOLE_ADMIN_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const DELETE = route({
  method: "DELETE",
  path: "/api/console/keys/[key_id]",
  auth: "console",
  responses: { 200: AccessKeyRecord },
  errors: [...CONSOLE_ADMIN_ERRORS, "access_key_not_found"],
  admin: true,
});
