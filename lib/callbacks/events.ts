// The events of completion callbacks, written to the outbox (callback_deliveries) in the same
// statement or transaction as the state change that causes them: a message that completes or fails
// (lib/conversations/store.ts, recovery.ts) and a run that moves to completed, failed,
// needs_review, paused or cancelled (lib/runs/state.ts). The payload is
// `{type, timestamp, data}` with `data` the object GET message / GET run answers at that moment.
import type { Prisma } from "../generated/prisma/client";
import { env, listenBaseUrl } from "../env";
import { ApiError } from "../errors";
import { CALLBACK_URL_MAX, callbackUrlProblem, type CallbackEvent } from "./schemas";
import { enqueueCallback } from "./service";

const UTC_ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * An INSERT of the callback of the message row(s) that CTE `m` returns (all columns, after their
 * update), for those with a callback_url. `id` and `at` are SQL parameters: the delivery id and
 * the event's time. `data` is built like lib/conversations/records.ts messageRecord (GET message).
 */
export const MESSAGE_CALLBACK_CTE = (m: string, id: string, at: string) => `
  INSERT INTO callback_deliveries (id, organization_id, agent_id, subject_id, event, url, body, status, attempts,
    round_start, next_attempt_at, created_at)
  SELECT ${id}, ${m}.organization_id, ${m}.agent_id, ${m}.id, e.event, ${m}.callback_url,
    json_build_object('type', e.event, 'timestamp', to_char(${at}::timestamp(3), ${UTC_ISO}), 'data', json_build_object(
      'message_id', ${m}.id, 'role', ${m}.role, 'status', ${m}.status, 'content', ${m}.content,
      'created_at', to_char(${m}.created_at, ${UTC_ISO}),
      'model', CASE WHEN ${m}.role = 'assistant' THEN ${m}.model END,
      'token_usage', CASE WHEN ${m}.role = 'assistant' AND ${m}.total_tokens IS NOT NULL THEN json_build_object(
        'prompt_tokens', COALESCE(${m}.prompt_tokens, 0), 'completion_tokens', COALESCE(${m}.completion_tokens, 0),
        'total_tokens', ${m}.total_tokens) END,
      'agent_version', CASE WHEN ${m}.role = 'assistant' THEN ${m}.agent_version END,
      'session_id', ${m}.session_id, 'agent_id', ${m}.agent_id, 'organization_id', ${m}.organization_id,
      'project_id', ${m}.project_id, 'cost', ${m}.cost, 'processing_time_ms', ${m}.processing_time_ms,
      'error', ${m}.error))::text,
    'pending', 0, 0, ${at}::timestamp(3), ${at}::timestamp(3)
  FROM ${m}, LATERAL (SELECT CASE WHEN ${m}.status = 'completed' THEN 'message.completed' ELSE 'message.failed' END
    AS event) e
  WHERE ${m}.callback_url IS NOT NULL
  RETURNING id`;

/** The run states that send a callback, and their event. */
export const RUN_EVENTS: Partial<Record<string, CallbackEvent>> = {
  completed: "run.completed",
  failed: "run.failed",
  needs_review: "run.needs_review",
  paused: "run.paused",
  cancelled: "run.cancelled",
};

/** Links in callback payloads (signed output file URLs) use PUBLIC_URL, else the listen address. */
export const callbackBaseUrl = () => (env().PUBLIC_URL ?? listenBaseUrl()).replace(/\/+$/, "");

/**
 * The run's callback for its move to `status`, inside the transition's transaction. `readRecord`
 * reads GET run's object within `tx` (lib/runs passes its own reader: lib/callbacks never imports
 * the run domain).
 */
export async function enqueueRunCallback(
  tx: Prisma.TransactionClient,
  run: { id: string; organizationId: string; agentId: string; callbackUrl: string | null; status: string },
  readRecord: () => Promise<unknown>,
): Promise<boolean> {
  const event = RUN_EVENTS[run.status];
  if (!event || !run.callbackUrl) return false;
  await enqueueCallback(tx, {
    organizationId: run.organizationId,
    agentId: run.agentId,
    subjectId: run.id,
    event,
    url: run.callbackUrl,
    data: await readRecord(),
  });
  return true;
}

/** A `callback_url` value checked, or 400 invalid_callback_url naming `field`. */
export function checkCallbackUrl(value: unknown, field = "callback_url"): string {
  const problem = callbackUrlProblem(value);
  if (problem) {
    throw new ApiError("invalid_callback_url", `Invalid ${field}: ${problem}.`, {
      fields: [{ field, message: problem }],
      max_length: CALLBACK_URL_MAX,
    });
  }
  return value as string;
}

/** The trigger's own `callback_url` (checked: 400 invalid_callback_url), or null when it names none. */
export function givenCallbackUrl(body: Record<string, unknown>): string | null {
  const given = body.callback_url;
  return given !== undefined && given !== null ? checkCallbackUrl(given) : null;
}
