import { ChangeRoleBody, MemberRecord, RemovedMember } from "@/lib/orgs/schemas";
import { CONSOLE_ADMIN_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const PATCH = route({
  method: "PATCH",
  path: "/api/console/members/[user_id]",
  auth: "console",
  responses: { 200: MemberRecord },
  errors: [...CONSOLE_ADMIN_ERRORS, ...JSON_BODY_ERRORS, "member_not_found", "last_admin"],
  body: ChangeRoleBody,
  admin: true,
});

export const DELETE = route({
  method: "DELETE",
  path: "/api/console/members/[user_id]",
  auth: "console",
  responses: { 200: RemovedMember },
  errors: [...CONSOLE_ADMIN_ERRORS, "member_not_found", "last_admin"],
  admin: true,
});
