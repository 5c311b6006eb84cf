import { z } from "zod";

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
