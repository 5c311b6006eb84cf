import { z } from "zod";
import { queryLimit, queryOffset } from "../validate";
import { CursorParam } from "../pagination";

export const Role = z.enum(["admin", "support"]);

const email = z.string().trim().toLowerCase().pipe(z.email("must be an email address").max(320));

/** An invitation: the email it is for and the role it gives (lib/orgs/invitations.ts). */
export const InviteBody = z.strictObject({ email, role: Role });
export type InviteBody = z.infer<typeof InviteBody>;

export const InvitationsQuery = z.object({ limit: queryLimit(50, 100), offset: queryOffset });

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

export const AuditQuery = z.object({
  action: z.string().min(1).max(100).optional(),
  limit: queryLimit(50, 100),
  offset: queryOffset,
  cursor: CursorParam,
});

export const SwitchOrgBody = z.strictObject({ organization_id: z.string().min(1) });
