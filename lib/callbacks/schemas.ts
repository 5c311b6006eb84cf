// Completion callbacks (docs/api.md "Completion callbacks"): the optional `callback_url` of triggers
// and agents, and the console's shapes of the signing secret and the delivery log. The one source
// of validation, types and the OpenAPI document.
import { z } from "zod";
import { EXAMPLE_ID } from "../id-format";
import {
  idString,
  listFilterFields,
  OrgParams,
  queryBoolean,
  queryLimit,
  responseId,
  responsePageFields,
  responseTimestamp,
} from "../validate";

/** Longest `callback_url` accepted. */
export const CALLBACK_URL_MAX = 2048;

/** Why a callback URL is refused, or undefined when it is acceptable (http or https, no credentials). */
export function callbackUrlProblem(value: unknown): string | undefined {
  if (typeof value !== "string") return "must be a string";
  if (value.length > CALLBACK_URL_MAX) return `must be at most ${CALLBACK_URL_MAX} characters`;
  if (!URL.canParse(value)) return "must be an absolute http or https URL";
  const url = new URL(value);
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must be an http or https URL";
  if (url.username || url.password) return "must not carry credentials (user:password@)";
  if (!url.hostname) return "must name a host";
  return undefined;
}

/** A `callback_url` value: documented for the OpenAPI document; refused with `invalid_callback_url`. */
export const CallbackUrl = z
  .string()
  .superRefine((v, ctx) => {
    const problem = callbackUrlProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem, params: { error_code: "invalid_callback_url" } });
  })
  .meta({
    format: "uri",
    maxLength: CALLBACK_URL_MAX,
    description:
      "Where completion callbacks of this message or run are sent (Standard Webhooks signed POSTs: docs/api.md " +
      '"Completion callbacks"). http or https, no credentials, at most 2048 characters; the same address rules ' +
      "as the http runtime apply when delivering.",
    example: "https://example.com/hooks/agents",
  });

export const CALLBACK_EVENTS = [
  "message.completed",
  "message.failed",
  "run.completed",
  "run.failed",
  "run.needs_review",
  "run.paused",
  "run.cancelled",
  "alert.fired",
  "alert.resolved",
  "alert.test",
] as const;
export const CallbackEvent = z.enum(CALLBACK_EVENTS);
export type CallbackEvent = z.infer<typeof CallbackEvent>;

export const SigningSecretInfo = z.strictObject({
  configured: z.boolean(),
  created_at: responseTimestamp().nullable(),
  hint: z.string().nullable().meta({ description: "The last 4 characters of the secret." }),
});
export type SigningSecretInfo = z.infer<typeof SigningSecretInfo>;

export const RotatedSecret = z.strictObject({
  secret: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]+=*$/)
    .meta({ description: "whsec_ + base64 of 32 random bytes (Standard Webhooks). Shown once." }),
  created_at: responseTimestamp(),
});
export type RotatedSecret = z.infer<typeof RotatedSecret>;

export const DeliveryStatus = z.enum(["pending", "delivered", "failed"]);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

export const DeliverySummary = z.strictObject({
  id: responseId("dlv"),
  event: z.string(),
  url: z.string(),
  agent_id: responseId("agt")
    .nullable()
    .meta({ description: "The agent; null for an alert of a rule that watches every agent (or none)." }),
  subject_id: z.string().meta({ description: "The message or run id; for an alert event, its `alt_...` id." }),
  session_id: z
    .string()
    .nullable()
    .meta({ description: "The session of a message subject (its thread in the console); null otherwise." }),
  status: DeliveryStatus,
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  next_attempt_at: responseTimestamp().nullable(),
  created_at: responseTimestamp(),
  delivered_at: responseTimestamp().nullable(),
});
export type DeliverySummary = z.infer<typeof DeliverySummary>;

export const DeliveryAttempt = z.strictObject({
  number: z.number().int(),
  started_at: responseTimestamp(),
  duration_ms: z.number().int(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  response_body: z.string().nullable().meta({ description: "The first 2 KiB of the answer." }),
});
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

export const DeliveryDetail = DeliverySummary.extend({
  request: z.strictObject({
    headers: z.record(z.string(), z.string()),
    body: z.string().meta({ description: "The exact JSON sent." }),
  }),
  attempts: z.array(DeliveryAttempt),
});
export type DeliveryDetail = z.infer<typeof DeliveryDetail>;

export const DeliveryList = z.strictObject({
  deliveries: z.array(DeliverySummary),
  ...responsePageFields(),
});
export type DeliveryList = z.infer<typeof DeliveryList>;

/** The deliveries list filters (docs/console.md, "List filters"): also a saved view's. */
export const DeliveryListFilters = z.object({
  ...listFilterFields({
    from: "Only deliveries created at or after this instant (RFC 3339, or a date).",
    to: "Only deliveries created before this instant (RFC 3339, or a date: through its end, UTC).",
  }),
  status: DeliveryStatus.optional().meta({
    description: "Only deliveries in this state: `pending`, `delivered` or `failed`.",
  }),
  agent_id: idString("agt", "agent").optional().meta({ description: "Only this agent's deliveries (`agt_...`)." }),
  has_error: queryBoolean.optional().meta({
    description: "`true`: only deliveries that gave up (`failed`); `false`: the others.",
  }),
});

/** GET /api/v1/organizations/{org_id}/deliveries: the cursor is the last delivery's id. */
export const DeliveryListQuery = DeliveryListFilters.extend({
  cursor: z.string().min(1).max(64).optional().meta({
    description:
      "The `next_cursor` of the previous page, with the same filters: the page continues after its last row.",
  }),
  limit: queryLimit(20, 100),
});
export type DeliveryListQuery = z.input<typeof DeliveryListQuery>;

export const DeliveryParams = OrgParams.extend({
  delivery_id: z.string().meta({ description: "The delivery (`dlv_...`).", example: EXAMPLE_ID.delivery }),
});
