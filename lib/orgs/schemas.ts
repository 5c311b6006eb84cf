import { z } from "zod";
import { EXAMPLE_ID } from "../id-format";
import {
  listFilterFields,
  managementPageQuery,
  OrgParams,
  queryCursor,
  queryLimit,
  responsePageFields,
} from "../validate";

export const Role = z.enum(["admin", "support"]);
export type Role = z.infer<typeof Role>;

const email = z.string().trim().toLowerCase().pipe(z.email("must be an email address").max(320));

/** An invitation: the email it is for and the role it gives (lib/orgs/invitations.ts). */
export const InviteBody = z.strictObject({ email, role: Role });
export type InviteBody = z.infer<typeof InviteBody>;

export const InvitationsQuery = z.object({ limit: queryLimit(50, 100), cursor: queryCursor });

export const InvitationParams = OrgParams.extend({
  invitation_id: z.string().meta({ description: "The invitation (`inv_...`).", example: EXAMPLE_ID.invitation }),
});

/**
 * Accepting an invitation: the token of the link; signed out, also the password (and name) of the
 * account it creates. The token's shape is checked by the service, so that a malformed token counts
 * as a wrong one.
 */
export const AcceptInvitationBody = z.strictObject({
  token: z.string().min(1, "is required").max(200),
  name: z.string().trim().max(200).optional(),
  password: z.string().min(8, "must be at least 8 characters").max(200).optional(),
});
export type AcceptInvitationBody = z.infer<typeof AcceptInvitationBody>;

export const ChangeRoleBody = z.strictObject({ role: Role });

export const MemberParams = OrgParams.extend({
  user_id: z.string().meta({ description: "The member's user id (`usr_...`).", example: EXAMPLE_ID.user }),
});

/** The audit log's filters (docs/console.md, "List filters"): also a saved view's. */
export const AuditFilters = z.object({
  ...listFilterFields({
    from: "Only events at or after this instant (RFC 3339, or a date).",
    to: "Only events before this instant (RFC 3339, or a date: through its end, UTC).",
  }),
  action: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: "One action (`member.role_changed`) or a group of them (`member.*`)." }),
});

export const AuditQuery = AuditFilters.extend({
  limit: queryLimit(50, 100),
  cursor: queryCursor,
});

export const SwitchOrgBody = z.strictObject({ organization_id: z.string().min(1) });

// Answers of the organization API's members, invitations and audit routes and of the console API
// (app/api/console), typed for the console's calls (components/console/use-api.ts).

export const MemberRecord = z.strictObject({
  user_id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: Role,
  joined_at: z.string(),
});
export type MemberRecord = z.infer<typeof MemberRecord>;
export const MemberList = z.strictObject({ members: z.array(MemberRecord), ...responsePageFields() });
export const MembersQuery = z.object(managementPageQuery());

export const InvitationRecord = z.strictObject({
  invitation_id: z.string(),
  email: z.string(),
  role: Role,
  invited_by: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type InvitationRecord = z.infer<typeof InvitationRecord>;
export const InvitationPage = z.strictObject({
  invitations: z.array(InvitationRecord),
  ...responsePageFields(),
});

export const AuditEventRecord = z.strictObject({
  event_id: z.string(),
  at: z.string(),
  actor: z.strictObject({ type: z.string(), id: z.string().nullable(), label: z.string().nullable() }),
  action: z.string(),
  target: z.strictObject({ type: z.string(), id: z.string() }),
  data: z.unknown(),
});
export type AuditEventRecord = z.infer<typeof AuditEventRecord>;
export const AuditPage = z.strictObject({
  events: z.array(AuditEventRecord),
  ...responsePageFields(),
});

/** The console's home: counts, runs waiting for a person, the latest failures. */
export const Overview = z.strictObject({
  counts: z.strictObject({
    agents: z.number().int(),
    active_keys: z.number().int(),
    sessions_today: z.number().int(),
    runs: z.record(z.string(), z.number().int()),
  }),
  needs_review: z.array(
    z.strictObject({
      run_id: z.string(),
      agent_id: z.string(),
      agent_name: z.string(),
      items_needs_review: z.number().int(),
      updated_at: z.string(),
    }),
  ),
  recent_errors: z.array(
    z.strictObject({
      kind: z.enum(["run", "message"]),
      id: z.string(),
      session_id: z.string().optional(),
      agent_id: z.string(),
      agent_name: z.string(),
      message: z.string(),
      at: z.string(),
    }),
  ),
  /** Live Access Keys expiring within 7 days, soonest first. */
  expiring_keys: z.array(
    z.strictObject({ key_id: z.string(), name: z.string(), start: z.string(), expires_at: z.string() }),
  ),
});
export type Overview = z.infer<typeof Overview>;

/** The signed-in person as the console knows them (no ids the browser cannot already see). */
export const ConsoleMe = z.strictObject({
  email: z.string(),
  name: z.string().nullable(),
  role: Role,
  organization: z.strictObject({ organization_id: z.string(), name: z.string() }),
  organizations: z.array(z.strictObject({ organization_id: z.string(), name: z.string(), role: Role })),
});
export type ConsoleMe = z.infer<typeof ConsoleMe>;

/** The answer to inviting: the invitation, its link (shown once) and whether it was emailed. */
export const CreatedInvitation = InvitationRecord.extend({ url: z.string(), emailed: z.boolean() });
export type CreatedInvitation = z.infer<typeof CreatedInvitation>;
export const RevokedInvitation = z.strictObject({ invitation_id: z.string(), revoked: z.literal(true) });
export const RemovedMember = z.strictObject({ user_id: z.string(), removed: z.literal(true) });

/** The answer to accepting an invitation: whether the browser is now signed in. */
export const AcceptedInvitation = z.looseObject({ signed_in: z.boolean() });
