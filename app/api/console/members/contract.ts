import { MemberList } from "@/lib/orgs/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/members",
  auth: "console",
  responses: { 200: MemberList },
  errors: [...CONSOLE_ERRORS, "forbidden"],
  admin: true,
});
