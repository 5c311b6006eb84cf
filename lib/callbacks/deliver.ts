// The delivery of completion callbacks: a poller in every worker process claims due rows of the
// outbox (pending, next_attempt_at passed, not held by a live attempt) and POSTs each one, signed
// with the Standard Webhooks scheme, through the same address guard as the http runtime. A claim
// holds its row for a bounded time (locked_until), so that the row of a worker that died mid-attempt
// is picked up again. 2xx: delivered; anything else, a timeout or a network error: retried with
// capped exponential backoff and jitter, `failed` after CALLBACK_MAX_ATTEMPTS; a refused address is
// final at once (retrying cannot change the verdict).
import { Webhook } from "standardwebhooks";
import { prisma } from "../db";
import { env } from "../env";
import { Prisma as P, type CallbackDelivery } from "../generated/prisma/client";
import { newId } from "../ids";
import { log } from "../log";
import { countCallbackAttempt } from "../metrics";
import { findUpstreamRefusal, guardedFetch } from "../net/upstream-guard";
import { baseHeaders, onNudge, signingSecretFor } from "./service";

/** Longest wait between two attempts. */
export const MAX_BACKOFF_MS = 6 * 60 * 60 * 1000;
/** How much of an answer is kept with its attempt. */
export const RESPONSE_BODY_BYTES = 2048;
/** How often a worker looks for due deliveries (a new one in this process is nudged at once). */
const POLL_MS = 500;
/** Deliveries claimed at once by one worker. */
const BATCH = 10;

/**
 * The wait before retry `retry` (1 = after the first failed attempt): base * 2^(retry-1), with
 * ±20% jitter so that the retries of many deliveries spread out, capped at MAX_BACKOFF_MS.
 */
export function backoffMs(retry: number, baseMs: number, random: () => number = Math.random): number {
  const exp = Math.min(baseMs * 2 ** Math.max(0, retry - 1), MAX_BACKOFF_MS);
  return Math.min(Math.round(exp * (0.8 + 0.4 * random())), MAX_BACKOFF_MS);
}

/** The three Standard Webhooks headers of one attempt, and the others every attempt carries. */
export function signedHeaders(opts: { id: string; body: string; secret: string; at: Date }): Record<string, string> {
  const signature = new Webhook(opts.secret).sign(opts.id, opts.at, opts.body);
  return {
    ...baseHeaders(opts.id),
    "webhook-timestamp": String(Math.floor(opts.at.getTime() / 1000)),
    "webhook-signature": signature,
  };
}

/** The first RESPONSE_BODY_BYTES of an answer (the rest is not read). */
async function readHead(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_BODY_BYTES).toString("utf8");
}

interface Outcome {
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  /** A refused address: no retry. */
  final: boolean;
}

async function send(d: CallbackDelivery, headers: Record<string, string>, timeoutMs: number): Promise<Outcome> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await guardedFetch(d.url, { method: "POST", headers, body: d.body, redirect: "manual", signal });
    const responseBody = await readHead(res).catch(() => null);
    const ok = res.status >= 200 && res.status < 300;
    return { statusCode: res.status, error: ok ? null : `HTTP ${res.status}`, responseBody, final: false };
  } catch (e) {
    const refused = findUpstreamRefusal(e);
    if (refused)
      return { statusCode: null, error: `refused: ${refused.publicMessage}`, responseBody: null, final: true };
    if (signal.aborted)
      return { statusCode: null, error: `no answer within ${timeoutMs} ms`, responseBody: null, final: false };
    const cause = (e as { cause?: { code?: unknown; message?: unknown } }).cause;
    const detail = typeof cause?.code === "string" ? cause.code : String(cause?.message ?? (e as Error).message);
    return { statusCode: null, error: `connection failed: ${detail}`, responseBody: null, final: false };
  }
}

/** One attempt of a claimed delivery: sent, recorded as an attempt row, the delivery moved on. */
export async function attemptDelivery(d: CallbackDelivery): Promise<void> {
  const e = env();
  const number = d.attempts + 1;
  const startedAt = new Date();
  let headers = baseHeaders(d.id);
  let outcome: Outcome;
  try {
    const secret = await signingSecretFor(d.organizationId);
    headers = signedHeaders({ id: d.id, body: d.body, secret, at: startedAt });
    outcome = await send(d, headers, e.CALLBACK_TIMEOUT_MS);
  } catch (err) {
    // The secret could not be read (e.g. AUTH_SECRET changed): nothing was sent; retried like a failure.
    outcome = { statusCode: null, error: `not sent: ${(err as Error).message}`, responseBody: null, final: false };
  }
  const durationMs = Date.now() - startedAt.getTime();
  const delivered = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const inRound = number - d.roundStart;
  const giveUp = !delivered && (outcome.final || inRound >= e.CALLBACK_MAX_ATTEMPTS);
  const status = delivered ? "delivered" : giveUp ? "failed" : "pending";
  const nextAttemptAt =
    status === "pending" ? new Date(Date.now() + backoffMs(inRound, e.CALLBACK_RETRY_BASE_MS)) : null;
  const db = await prisma();
  await db.$transaction([
    db.callbackAttempt.create({
      data: {
        id: newId("att"),
        deliveryId: d.id,
        number,
        startedAt,
        durationMs,
        statusCode: outcome.statusCode,
        error: outcome.error,
        responseBody: outcome.responseBody,
      },
    }),
    db.callbackDelivery.update({
      where: { id: d.id },
      data: {
        attempts: number,
        status,
        lastStatusCode: outcome.statusCode,
        nextAttemptAt,
        deliveredAt: delivered ? new Date() : null,
        requestHeaders: headers,
        lockedUntil: null,
      },
    }),
  ]);
  countCallbackAttempt(delivered ? "delivered" : giveUp ? "failed" : "retry");
  // Never the secret, the signature or the body.
  log[delivered ? "info" : "warn"](
    {
      delivery_id: d.id,
      event: d.event,
      attempt: number,
      status_code: outcome.statusCode,
      duration_ms: durationMs,
      outcome: status,
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(nextAttemptAt ? { next_attempt_at: nextAttemptAt.toISOString() } : {}),
    },
    "callback attempt",
  );
}

/** Claims up to `limit` due deliveries for this worker (held for the attempt's time limit and a margin). */
export async function claimDue(limit = BATCH, now = new Date()): Promise<CallbackDelivery[]> {
  const db = await prisma();
  const holdUntil = new Date(now.getTime() + env().CALLBACK_TIMEOUT_MS + 30_000);
  const ids = await db.$queryRaw<{ id: string }[]>(P.sql`
    UPDATE callback_deliveries SET locked_until = ${holdUntil}::timestamp(3)
    WHERE id IN (
      SELECT id FROM callback_deliveries
      WHERE status = 'pending' AND next_attempt_at <= ${now}::timestamp(3)
        AND (locked_until IS NULL OR locked_until < ${now}::timestamp(3))
      ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING id`);
  if (!ids.length) return [];
  return db.callbackDelivery.findMany({
    where: { id: { in: ids.map((r) => r.id) } },
    orderBy: { nextAttemptAt: "asc" },
  });
}

/** Claims and attempts due deliveries until none is due; returns how many were attempted. */
export async function deliverDue(): Promise<number> {
  let total = 0;
  for (;;) {
    const batch = await claimDue();
    await Promise.all(
      batch.map((d) =>
        attemptDelivery(d).catch((err) =>
          log.error({ delivery_id: d.id, err: { message: (err as Error).message } }, "callback attempt not recorded"),
        ),
      ),
    );
    total += batch.length;
    if (batch.length < BATCH) return total;
  }
}

/** The worker's poller; returns a stop function that waits for the attempts in flight. */
export function startCallbackDeliverer(): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = deliverDue()
      .then(
        () => {},
        (err) => log.warn({ err: { message: (err as Error).message } }, "callback delivery poll failed"),
      )
      .finally(() => {
        running = undefined;
        if (stopped) return;
        if (again) {
          again = false;
          tick();
        } else schedule(POLL_MS);
      });
  };
  const schedule = (ms: number) => {
    timer = setTimeout(tick, ms);
    timer.unref?.();
  };
  // A row committed by this process: look shortly (the nudge may come before its commit).
  onNudge(() => {
    if (stopped) return;
    if (running) again = true;
    else {
      clearTimeout(timer);
      schedule(20);
    }
  });
  tick();
  return async () => {
    stopped = true;
    onNudge(undefined);
    clearTimeout(timer);
    await running;
  };
}
