import { z } from "zod";
import { queryLimit, queryOffset } from "../validate";

export const Role = z.enum(["admin", "support"]);

const email = z.string().trim().toLowerCase().pipe(z.email("must be an email address").max(320));

export const AddMemberBody = z.strictObject({
  email,
  role: Role,
  name: z.string().trim().max(200).optional(),
  /** Needed for a new user; an existing user keeps their password. */
  password: z.string().min(8, "must be at least 8 characters").max(200).optional(),
});
export type AddMemberBody = z.infer<typeof AddMemberBody>;

export const ChangeRoleBody = z.strictObject({ role: Role });

export const AuditQuery = z.object({
  action: z.string().min(1).max(100).optional(),
  limit: queryLimit(50, 100),
  offset: queryOffset,
});

export const SwitchOrgBody = z.strictObject({ organization_id: z.string().min(1) });
