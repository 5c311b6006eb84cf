// Retention (docs/api.md "Retention"): the organization's setting, what it keeps and what the next
// sweep would delete. The one source of validation, types and the OpenAPI document; browser-safe.
import { z } from "zod";
import { responseTimestamp } from "../validate";

/** The longest retention an organization may set: ten years. */
export const MAX_RETENTION_DAYS = 3650;
/** The preview counts at most this many records of each kind, and one more to say "more than". */
export const PREVIEW_LIMIT = 10_000;

const days = z
  .number()
  .int("must be an integer")
  .min(0, "must be 0 (keep forever) or 1 to 3650 days")
  .max(MAX_RETENTION_DAYS, "must be 0 (keep forever) or 1 to 3650 days");

export const SetRetentionBody = z.strictObject({
  retention_days: days.nullable().meta({
    description: "Days history is kept: `null` follows the server default (`RETENTION_DAYS`), `0` keeps forever.",
    example: 90,
  }),
});
export type SetRetentionBody = z.infer<typeof SetRetentionBody>;

export const RetentionQuery = z.object({
  preview_days: z
    .string()
    .regex(/^\d+$/, "must be an integer from 0 to 3650")
    .transform(Number)
    .pipe(days)
    .optional()
    .meta({
      description:
        "A retention in days (0-3650, 0: forever) to preview: adds `preview`, what the next sweep would delete " +
        "with it, each kind counted up to 10,001.",
    }),
});
export type RetentionQuery = z.infer<typeof RetentionQuery>;

const KINDS = ["sessions", "runs", "uploads", "deliveries", "audit", "evaluations"] as const;
export type RetentionKind = (typeof KINDS)[number];

const perKind = <T extends z.ZodType>(schema: T) =>
  z.strictObject(Object.fromEntries(KINDS.map((k) => [k, schema])) as Record<RetentionKind, T>);

export const RetentionPreview = z
  .strictObject({
    retention_days: z.number().int(),
    cutoff: responseTimestamp()
      .nullable()
      .meta({ description: "Records older than this go at the next sweep; null when the retention is forever." }),
    counts: perKind(z.number().int()).meta({
      description: `Records of each kind the next sweep would delete, counted up to ${PREVIEW_LIMIT + 1}: ${PREVIEW_LIMIT + 1} means more than ${PREVIEW_LIMIT}.`,
    }),
  })
  .meta({ description: "Only with `preview_days`." });

export const RetentionSetting = z.strictObject({
  retention_days: z
    .number()
    .int()
    .nullable()
    .meta({ description: "The organization's own setting: null follows the server default, 0 keeps forever." }),
  default_retention_days: z.number().int().meta({ description: "The server's `RETENTION_DAYS` (0: forever)." }),
  effective_days: z
    .number()
    .int()
    .meta({ description: "What the sweep applies: `retention_days`, else the default; 0 keeps forever." }),
  oldest: perKind(responseTimestamp().nullable()).meta({
    description:
      "The time of the oldest record kept of each kind (sessions by last activity, the others by creation); null when there is none.",
  }),
  preview: RetentionPreview.optional(),
});
export type RetentionSetting = z.infer<typeof RetentionSetting>;
