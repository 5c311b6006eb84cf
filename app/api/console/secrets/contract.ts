import { SecretList } from "@/lib/secrets/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/secrets",
  auth: "console",
  responses: { 200: SecretList },
  errors: [...CONSOLE_ERRORS, "forbidden"],
  admin: true,
});
