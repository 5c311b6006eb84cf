import { z } from "zod";
import { EXAMPLE_ID } from "../id-format";
import { managementPageQuery, OrgParams, responseId, responsePageFields, responseTimestamp } from "../validate";

export const PERMISSIONS = ["agents:invoke"] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Largest per-key rate limit: requests a minute. */
export const MAX_RATE_LIMIT_PER_MINUTE = 1_000_000;

/** Latest expiry a key may be given, from now: 5 years. */
export const MAX_KEY_LIFETIME_MS = 5 * 365 * 24 * 3_600_000;
/** Agents a scoped key may name. */
export const MAX_KEY_AGENTS = 100;
/** A roll's grace period: 0 (the old key is revoked at once), or 1 hour to 7 days. */
export const MIN_GRACE_SECONDS = 3_600;
export const MAX_GRACE_SECONDS = 7 * 24 * 3_600;

const keyName = z.string().trim().min(1).max(200);
const rateLimit = z.number().int().min(1).max(MAX_RATE_LIMIT_PER_MINUTE).nullable();
/** RFC 3339 with an offset; "in the future, at most 5 years away" is checked by the service (it knows now). */
const expiresAt = z.iso
  .datetime({ offset: true })
  .nullable()
  .meta({ description: "RFC 3339; in the future, at most 5 years away; null: never expires." });
const agentIds = z
  .array(z.string().regex(/^agt_[0-9A-Za-z]{1,64}$/, "must be an agent id (agt_...)"))
  .min(1)
  .max(MAX_KEY_AGENTS)
  .nullable()
  .meta({ description: "The agents the key may reach; null or absent: every agent of the organization." });

export const MintKeyBody = z.strictObject({
  name: keyName,
  permissions: z.array(z.enum(PERMISSIONS)).max(20).default(["agents:invoke"]),
  /** Requests a minute on the public API; absent or null: the service default (RATE_LIMIT_PER_MINUTE). */
  rate_limit_per_minute: rateLimit.optional(),
  expires_at: expiresAt.optional(),
  agent_ids: agentIds.optional(),
});
export type MintKeyBody = z.infer<typeof MintKeyBody>;

// Response shapes of the management API's Access Keys (docs/api.md), for the OpenAPI document.

export const AccessKeyRecord = z.strictObject({
  key_id: responseId("key"),
  organization_id: responseId("org"),
  name: z.string(),
  start: z.string().meta({ description: "The first characters of the key, for display." }),
  permissions: z.array(z.string()),
  rate_limit_per_minute: z
    .number()
    .int()
    .nullable()
    .meta({ description: "The key's own limit; null: the service default (RATE_LIMIT_PER_MINUTE)." }),
  created_at: responseTimestamp(),
  last_used_at: responseTimestamp().nullable(),
  revoked_at: responseTimestamp().nullable(),
  expires_at: responseTimestamp()
    .nullable()
    .meta({ description: "After this instant the key is refused (`access_key_expired`); null: never." }),
  agent_ids: z
    .array(z.string())
    .nullable()
    .meta({ description: "The agents the key may reach; null: every agent of the organization." }),
  revoke_at: responseTimestamp()
    .nullable()
    .meta({ description: "A rolled key's end of grace: refused from then on, and revoked soon after." }),
  rolled_to_key_id: z.string().nullable().meta({ description: "The successor this key was rolled to." }),
  rolled_from_key_id: z.string().nullable().meta({ description: "The key this one was rolled from." }),
});
export type AccessKeyRecord = z.infer<typeof AccessKeyRecord>;

/** The answer to minting: the record and, this once, the raw key. */
export const MintedAccessKey = AccessKeyRecord.extend({
  key: z
    .string()
    .regex(/^ak_[0-9A-Za-z]+$/)
    .meta({ description: "The raw Access Key: returned here only, never again." }),
});

export const AccessKeyList = z.strictObject({
  access_keys: z.array(AccessKeyRecord),
  default_rate_limit_per_minute: z
    .number()
    .int()
    .meta({ description: "Requests a minute of keys without their own limit (0: no default limit)." }),
});

/** The management API's list: a page of keys, newest first (docs/api.md, Paging). */
export const ManagementKeyListQuery = z.object(managementPageQuery());

export const AccessKeyParams = OrgParams.extend({
  key_id: z.string().meta({
    description: "The Access Key's id (`key_...`), not the key itself.",
    example: EXAMPLE_ID.key,
  }),
});
export const ManagementAccessKeyList = AccessKeyList.extend({ ...responsePageFields() });

/** Rolling a key: how long the old key keeps working (0: revoked at once). */
export const RollKeyBody = z.strictObject({
  grace_period_seconds: z
    .number()
    .int()
    .min(0)
    .max(MAX_GRACE_SECONDS)
    .refine((n) => n === 0 || n >= MIN_GRACE_SECONDS, "must be 0 (revoke now) or from 3600 (1 hour) to 604800 (7 days)")
    .meta({ anyOf: [{ const: 0 }, { minimum: MIN_GRACE_SECONDS }] }),
});
export type RollKeyBody = z.infer<typeof RollKeyBody>;

/** Changing a key after mint: any of these; the secret never changes. */
export const UpdateKeyBody = z
  .strictObject({
    name: keyName.optional(),
    rate_limit_per_minute: rateLimit.optional(),
    expires_at: expiresAt.optional(),
    agent_ids: agentIds.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, "give at least one of name, rate_limit_per_minute, expires_at, agent_ids")
  .meta({ minProperties: 1 });
export type UpdateKeyBody = z.infer<typeof UpdateKeyBody>;

/** Largest count a usage preview gives exactly: beyond it, `capped` is true ("10,000+"). */
export const PREVIEW_COUNT_CAP = 10_000;
/** End users a usage preview names at most. */
export const PREVIEW_USER_IDS = 20;

const cappedCount = z.strictObject({
  count: z.number().int().meta({ description: "Exact up to 10,000; when `capped`, at least that." }),
  capped: z.boolean(),
});

/** What a key was used for: what revoking it would break (docs/api.md, Access Keys). */
export const KeyUsagePreview = z.strictObject({
  key_id: responseId("key"),
  requests_24h: cappedCount.meta({ description: "Triggers (messages and runs) in the last 24 hours." }),
  requests_7d: cappedCount.meta({ description: "Triggers (messages and runs) in the last 7 days." }),
  last_request_at: responseTimestamp().nullable(),
  agents: z
    .array(z.strictObject({ agent_id: z.string(), name: z.string() }))
    .meta({ description: "Agents it triggered in the last 7 days (at most 100)." }),
  user_ids: z.array(z.string()).meta({ description: "End users (`user_id`) of its sessions, at most 20." }),
  more_user_ids: z.boolean(),
  sessions_started: cappedCount,
  runs_started: cappedCount,
});
export type KeyUsagePreview = z.infer<typeof KeyUsagePreview>;
