import { KeyUsagePreview } from "@/lib/keys/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/keys/[key_id]/usage-preview",
  auth: "console",
  responses: { 200: KeyUsagePreview },
  errors: [...CONSOLE_ERRORS, "access_key_not_found"],
});
