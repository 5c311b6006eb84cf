import * as ex from "@/lib/openapi/examples";
import { ADMIN_ERRORS } from "@/lib/openapi/management";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { ChangeRoleBody, MemberRecord, RemovedMember, MemberParams } from "@/lib/orgs/schemas";
import { route } from "@/lib/http/contract";

export const PATCH = route({
  method: "PATCH",
  path: "/api/v1/organizations/[org_id]/members/[user_id]",
  auth: "member",
  params: MemberParams,
  admin: true,
  body: ChangeRoleBody,
  responses: { 200: MemberRecord },
  errors: [...ADMIN_ERRORS, ...JSON_BODY_ERRORS, "member_not_found", "last_admin"],
  openapi: () => ({
    operationId: "changeMemberRole",
    summary: "Change a member's role",
    tag: "Members and invitations",
    description:
      "Admin only. `admin` or `support`. Taking the admin role from the last admin is `409 last_admin`; a " +
      "user who is not a member here `404 member_not_found`. Written to the audit log (`member.role_changed`).",
    bodyExamples: {
      admin: { summary: "Make them an admin", value: { role: "admin" } },
    },
    responses: {
      "200": { description: "The member.", examples: { changed: { summary: "Now an admin", value: ex.memberRecord } } },
    },
  }),
});

export const DELETE = route({
  method: "DELETE",
  path: "/api/v1/organizations/[org_id]/members/[user_id]",
  auth: "member",
  params: MemberParams,
  admin: true,
  responses: { 200: RemovedMember },
  errors: [...ADMIN_ERRORS, "member_not_found", "last_admin"],
  openapi: () => ({
    operationId: "removeMember",
    summary: "Remove a member",
    tag: "Members and invitations",
    description:
      "Admin only. The user leaves the organization (their account and other memberships stay). Removing " +
      "the last admin is `409 last_admin`. Written to the audit log (`member.removed`).",
    responses: {
      "200": {
        description: "The member is gone.",
        examples: { removed: { summary: "Removed", value: { user_id: ex.memberRecord.user_id, removed: true } } },
      },
    },
  }),
});
