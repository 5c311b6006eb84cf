import * as ex from "@/lib/openapi/examples";
import { ADMIN_ERRORS } from "@/lib/openapi/management";
import { MemberList, MembersQuery } from "@/lib/orgs/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

// Members are listed here; people join through invitations (../invitations), never by being added.
export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/members",
  auth: "member",
  params: OrgParams,
  admin: true,
  query: MembersQuery,
  responses: { 200: MemberList },
  errors: [...ADMIN_ERRORS, "invalid_request"],
  openapi: () => ({
    operationId: "listMembers",
    summary: "List members",
    tag: "Members and invitations",
    description:
      "Admin only. The organization's members with their roles, longest-standing first; a page at a time: " +
      "`next_cursor` (null on the last page) passed as `cursor` answers the next page. People join by " +
      "invitation only (`createInvitation`).",
    responses: {
      "200": {
        description: "The members.",
        examples: {
          members: {
            summary: "An admin and a support member",
            value: {
              members: [
                ex.memberRecord,
                {
                  ...ex.memberRecord,
                  user_id: "usr_0Tg5Hj8Kl1Zx4Cv7Bn2Mq9",
                  email: "grace@example.com",
                  name: null,
                  role: "support",
                },
              ],
              has_more: false,
              next_cursor: null,
            },
          },
        },
      },
    },
  }),
});
