import * as ex from "@/lib/openapi/examples";
import { ADMIN_ERRORS } from "@/lib/openapi/management";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { CreatedInvitation, InvitationPage, InvitationsQuery, InviteBody } from "@/lib/orgs/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/invitations",
  auth: "member",
  params: OrgParams,
  admin: true,
  query: InvitationsQuery,
  responses: { 200: InvitationPage },
  errors: [...ADMIN_ERRORS, "invalid_request"],
  openapi: () => ({
    operationId: "listInvitations",
    summary: "List pending invitations",
    tag: "Members and invitations",
    description:
      "Admin only. Invitations not yet accepted, revoked or expired, newest first, never their links; a page " +
      "at a time: `next_cursor` (null on the last page) passed as `cursor` answers the next page.",
    responses: {
      "200": {
        description: "The pending invitations.",
        examples: {
          invitations: {
            summary: "One pending invitation",
            value: { invitations: [ex.invitationRecord], has_more: false, next_cursor: null },
          },
        },
      },
    },
  }),
});

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/invitations",
  auth: "member",
  params: OrgParams,
  admin: true,
  body: InviteBody,
  responses: { 201: CreatedInvitation },
  errors: [...ADMIN_ERRORS, ...JSON_BODY_ERRORS, "conflict"],
  openapi: () => ({
    operationId: "createInvitation",
    summary: "Invite someone",
    tag: "Members and invitations",
    description:
      "Admin only. A single-use link valid 7 days for `email` with `role`, answered this once in `url` (and " +
      "emailed when the server has SMTP: `emailed`). The invited person accepts it in the browser, signed in " +
      "with that email or creating an account; nobody becomes a member without accepting. A pending " +
      "invitation of the same email is replaced (its link stops working); an email already a member here " +
      "is `409 conflict`.",
    bodyExamples: {
      support: { summary: "A support member", value: { email: "grace@example.com", role: "support" } },
    },
    responses: {
      "201": {
        description: "The invitation, with its link.",
        examples: {
          invited: {
            summary: "Invited and emailed",
            value: { ...ex.invitationRecord, url: "https://agents.example.com/invite/inv_tok_8Xr2Lp", emailed: true },
          },
        },
      },
    },
  }),
});
