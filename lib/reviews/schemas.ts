// The shared review inbox and the console's live updates (docs/console.md, Reviews and Live
// updates): requests and answers of the organization API's reviews (/api/v1/organizations/{org_id}/reviews)
// and of /api/console/changes. Browser-safe.
import { z } from "zod";
import { EXAMPLE_ID } from "../id-format";
import {
  idString,
  inputInstant,
  OrgParams,
  queryCursor,
  queryLimit,
  responseId,
  responsePageFields,
  responseTimestamp,
} from "../validate";
import { MemberApproval, RESOLUTIONS } from "../runs/schemas";

export const REVIEW_LIMIT_DEFAULT = 20;
export const CLAIM_FILTERS = ["claimed", "unclaimed"] as const;

const instant = inputInstant("must be a date and time (ISO 8601)");

export const ReviewsQuery = z.object({
  agent_id: z.string().min(1).max(100).optional().meta({ description: "Only this agent's items (`agt_...`)." }),
  from: instant.optional().meta({ description: "Only items waiting since this instant or later." }),
  to: instant.optional().meta({ description: "Only items waiting since before this instant." }),
  claimed: z
    .enum(CLAIM_FILTERS)
    .optional()
    .meta({ description: "`claimed`: only items a member holds now; `unclaimed`: the others." }),
  limit: queryLimit(REVIEW_LIMIT_DEFAULT, 100),
  cursor: queryCursor,
});

export const ReviewParams = OrgParams.extend({
  exception_id: z.string().max(100).meta({
    description: "An item waiting for a person's decision (`exc_...`), as the review list names it.",
    example: EXAMPLE_ID.exception,
  }),
});

/** A reason: required on reject in the console, 1..1000 characters. */
export const Reason = z.string().trim().min(1).max(1000);

export const ClaimBody = z.strictObject({
  take_over: z.boolean().default(false),
});

export const DecideBody = z.strictObject({
  resolution: z.enum(RESOLUTIONS),
  modified_data: z.unknown().optional(),
  reason: Reason.optional(),
  take_over: z.boolean().default(false),
});
export type DecideBody = z.infer<typeof DecideBody>;

export const BULK_MAX = 100;

export const BulkDecideBody = z.strictObject({
  exception_ids: z.array(z.string().min(1).max(100)).min(1).max(BULK_MAX),
  resolution: z.enum(["approved", "rejected"]),
  reason: Reason.optional(),
  take_over: z.boolean().default(false),
});

export const ReviewItem = MemberApproval.extend({
  run_id: responseId("run"),
  run_status: z.string(),
  agent_id: responseId("agt"),
  agent_name: z.string(),
  waiting_since: responseTimestamp(),
});
export type ReviewItem = z.infer<typeof ReviewItem>;

export const ReviewPage = z.strictObject({
  items: z.array(ReviewItem),
  ...responsePageFields(),
});

export const BULK_OUTCOMES = ["decided", "skipped", "failed"] as const;

export const BulkDecideResult = z.strictObject({
  results: z.array(
    z.strictObject({
      exception_id: z.string(),
      outcome: z.enum(BULK_OUTCOMES),
      code: z.string().nullable(),
      message: z.string().nullable(),
    }),
  ),
  decided: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
});
export type BulkDecideResult = z.infer<typeof BulkDecideResult>;

// Live updates: a long poll that answers when something of the organization changed.

export const LIVE_TOPICS = ["runs", "sessions", "messages", "reviews"] as const;
export type LiveTopic = (typeof LIVE_TOPICS)[number];

/** The longest a long poll is held (seconds); a client may ask for less. */
export const CHANGES_WAIT_MAX = 25;

export const ChangesQuery = z.object({
  topics: z
    .string()
    .max(200)
    .transform((s) => [...new Set(s.split(",").map((t) => t.trim()))])
    .pipe(z.array(z.enum(LIVE_TOPICS)).min(1)),
  since: z.string().max(2000).optional(),
  wait: z
    .string()
    .regex(/^\d+$/, "must be a whole number of seconds")
    .transform(Number)
    .pipe(z.number().int().min(0).max(CHANGES_WAIT_MAX))
    .optional(),
  /** The thread view's session: the `messages` mark is read for it only (a session of another organization is not found). */
  session_id: idString("sess", "session").optional(),
});

export const ChangesAnswer = z.strictObject({
  cursor: z.string(),
  changed: z.array(z.enum(LIVE_TOPICS)),
});
export type ChangesAnswer = z.infer<typeof ChangesAnswer>;
