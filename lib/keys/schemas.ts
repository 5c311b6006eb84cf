import { z } from "zod";
import { managementPageQuery, responseId, responseNextCursor, responseTimestamp } from "../validate";

export const PERMISSIONS = ["agents:invoke"] as const;

/** Largest per-key rate limit: requests a minute. */
export const MAX_RATE_LIMIT_PER_MINUTE = 1_000_000;

export const MintKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  permissions: z.array(z.enum(PERMISSIONS)).max(20).default(["agents:invoke"]),
  /** Requests a minute on the public API; absent or null: the service default (RATE_LIMIT_PER_MINUTE). */
  rate_limit_per_minute: z.number().int().min(1).max(MAX_RATE_LIMIT_PER_MINUTE).nullable().optional(),
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
});

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
export const ManagementAccessKeyList = AccessKeyList.extend({ next_cursor: responseNextCursor() });
