// Completion callbacks, the console's side: the organization's signing secret (shown once,
// rotatable) and the delivery log (list, detail, redeliver). Every query is scoped to the
// organization: a delivery of another organization is not found.
import { audit, type Actor } from "../audit";
import type { z } from "zod";
import { prisma } from "../db";
import { ApiError } from "../errors";
import type { CallbackAttempt, CallbackDelivery, Prisma } from "../generated/prisma/client";
import { idFloorAt, newId } from "../ids";
import { instantRange } from "../pagination";
import type {
  DeliveryAttempt,
  DeliveryDetail,
  DeliveryStatus,
  DeliverySummary,
  RotatedSecret,
  SigningSecretInfo,
} from "./schemas";
import { decryptSecret, encryptSecret, newSigningSecret } from "./secret";
import type { DeliveryList } from "./schemas";

type Db = Prisma.TransactionClient;

const hintOf = (secret: string) => secret.slice(-4);

export async function signingSecretInfo(organizationId: string): Promise<SigningSecretInfo> {
  const db = await prisma();
  const row = await db.webhookSecret.findUnique({ where: { organizationId } });
  return {
    configured: row !== null,
    created_at: row?.createdAt.toISOString() ?? null,
    hint: row?.hint ?? null,
  };
}

/** Creates the organization's first secret or replaces it; the old one stops signing at once. */
export async function rotateSigningSecret(organizationId: string, actor: Actor): Promise<RotatedSecret> {
  const secret = newSigningSecret();
  const db = await prisma();
  const row = await db.$transaction(async (tx) => {
    const previous = await tx.webhookSecret.findUnique({ where: { organizationId } });
    const data = { ciphertext: encryptSecret(secret, organizationId), hint: hintOf(secret), createdAt: new Date() };
    const saved = await tx.webhookSecret.upsert({
      where: { organizationId },
      create: { organizationId, ...data },
      update: data,
    });
    await audit({
      tx,
      organizationId,
      actor,
      action: previous ? "webhook_secret.rotated" : "webhook_secret.created",
      targetType: "webhook_secret",
      targetId: organizationId,
      data: { hint: saved.hint },
    });
    return saved;
  });
  return { secret, created_at: row.createdAt.toISOString() };
}

/**
 * The secret that signs the organization's callbacks. An organization that has none when its first
 * callback is sent gets one here (docs/decisions.md): callbacks are never sent unsigned, and an
 * admin sees "configured" and rotates to learn a value.
 */
export async function signingSecretFor(organizationId: string): Promise<string> {
  const db = await prisma();
  const row = await db.webhookSecret.findUnique({ where: { organizationId } });
  if (row) return decryptSecret(row.ciphertext, organizationId);
  const secret = newSigningSecret();
  // Of two workers racing here, the first insert wins and both sign with what is stored.
  await db.webhookSecret.createMany({
    data: [{ organizationId, ciphertext: encryptSecret(secret, organizationId), hint: hintOf(secret) }],
    skipDuplicates: true,
  });
  const stored = await db.webhookSecret.findUniqueOrThrow({ where: { organizationId } });
  return decryptSecret(stored.ciphertext, organizationId);
}

// ---- the delivery log ----

export function deliverySummary(d: CallbackDelivery, sessions: ReadonlyMap<string, string>): DeliverySummary {
  return {
    id: d.id,
    event: d.event,
    url: d.url,
    // Alert events of a rule of no agent are stored with '' (the column is required).
    agent_id: d.agentId || null,
    subject_id: d.subjectId,
    session_id: sessions.get(d.subjectId) ?? null,
    status: d.status as DeliveryStatus,
    attempts: d.attempts,
    last_status_code: d.lastStatusCode,
    next_attempt_at: d.status === "pending" ? (d.nextAttemptAt?.toISOString() ?? null) : null,
    created_at: d.createdAt.toISOString(),
    delivered_at: d.deliveredAt?.toISOString() ?? null,
  };
}

/**
 * The sessions of the deliveries whose subject is a message, in one query by the messages' primary
 * key (a page of deliveries, not one query each); scoped to the organization.
 */
async function sessionsOf(db: Db, organizationId: string, rows: CallbackDelivery[]): Promise<Map<string, string>> {
  const messageIds = [...new Set(rows.map((r) => r.subjectId).filter((id) => id.startsWith("msg_")))];
  if (!messageIds.length) return new Map();
  const messages = await db.message.findMany({
    where: { id: { in: messageIds }, organizationId },
    select: { id: true, sessionId: true },
  });
  return new Map(messages.map((m) => [m.id, m.sessionId]));
}

function attemptRecord(a: CallbackAttempt): DeliveryAttempt {
  return {
    number: a.number,
    started_at: a.startedAt.toISOString(),
    duration_ms: a.durationMs,
    status_code: a.statusCode,
    error: a.error,
    response_body: a.responseBody,
  };
}

/** The headers every attempt carries besides the per-attempt timestamp and signature. */
export const USER_AGENT = "agent-webhook-service-callbacks/1";
export const baseHeaders = (deliveryId: string): Record<string, string> => ({
  "webhook-id": deliveryId,
  "content-type": "application/json",
  "user-agent": USER_AGENT,
});

const minId = (a: string | undefined, b: string) => (a !== undefined && a < b ? a : b);

export async function listDeliveries(
  organizationId: string,
  opts: {
    status?: DeliveryStatus;
    agent_id?: string;
    has_error?: boolean;
    from?: Date;
    to?: Date;
    cursor?: string;
    limit?: number;
  } = {},
): Promise<z.output<typeof DeliveryList>> {
  const limit = Math.min(Math.max(opts.limit ?? 20, 1), 100);
  const db = await prisma();
  // Ids start with their creation time: newest first is id descending, and the cursor is the last id.
  const rows = await db.callbackDelivery.findMany({
    where: {
      organizationId,
      ...(opts.status ? { status: opts.status } : {}),
      ...(opts.agent_id ? { agentId: opts.agent_id } : {}),
      // The time range bounds the id too (ids start with their creation time, a minute's slack for
      // the moment between making the id and storing the row): the index range of the list's order.
      id: {
        ...(opts.cursor ? { lt: opts.cursor } : {}),
        ...(opts.to ? { lt: minId(opts.cursor, idFloorAt("dlv", opts.to.getTime() + 60_000)) } : {}),
        ...(opts.from ? { gte: idFloorAt("dlv", opts.from.getTime() - 60_000) } : {}),
      },
      ...instantRange("createdAt", opts),
      // A delivery that gave up is failed: the status index serves the filter.
      ...(opts.has_error === undefined ? {} : opts.has_error ? { status: "failed" } : { status: { not: "failed" } }),
    },
    orderBy: { id: "desc" },
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  const has_more = rows.length > limit;
  const sessions = await sessionsOf(db, organizationId, page);
  return {
    deliveries: page.map((d) => deliverySummary(d, sessions)),
    has_more,
    next_cursor: has_more ? page[page.length - 1]!.id : null,
  };
}

async function findDelivery(db: Db, organizationId: string, id: string) {
  const row = await db.callbackDelivery.findFirst({ where: { id, organizationId } });
  if (!row) throw new ApiError("delivery_not_found", "Callback delivery not found.");
  return row;
}

export async function getDelivery(organizationId: string, id: string): Promise<DeliveryDetail> {
  const db = await prisma();
  const row = await findDelivery(db, organizationId, id);
  const attempts = await db.callbackAttempt.findMany({ where: { deliveryId: row.id }, orderBy: { number: "asc" } });
  const headers = { ...baseHeaders(row.id), ...((row.requestHeaders as Record<string, string> | null) ?? {}) };
  const sessions = await sessionsOf(db, organizationId, [row]);
  return {
    ...deliverySummary(row, sessions),
    request: { headers, body: row.body },
    attempts: attempts.map(attemptRecord),
  };
}

/**
 * Sends the same event again (same payload, same webhook-id): the delivery is pending again with a
 * fresh retry budget, due now.
 */
export async function redeliver(organizationId: string, id: string, actor: Actor): Promise<DeliverySummary> {
  const db = await prisma();
  const row = await db.$transaction(async (tx) => {
    const current = await findDelivery(tx, organizationId, id);
    const updated = await tx.callbackDelivery.update({
      where: { id: current.id },
      data: { status: "pending", roundStart: current.attempts, nextAttemptAt: new Date(), deliveredAt: null },
    });
    await audit({
      tx,
      organizationId,
      actor,
      action: "callback_delivery.redelivered",
      targetType: "callback_delivery",
      targetId: current.id,
      data: { event: current.event, previous_status: current.status },
    });
    return updated;
  });
  nudgeDeliverer();
  return deliverySummary(row, await sessionsOf(db, organizationId, [row]));
}

// ---- the outbox ----

let nudge: (() => void) | undefined;
/** The in-process deliverer registers here so that a new or redelivered row goes out at once. */
export function onNudge(fn: (() => void) | undefined) {
  nudge = fn;
}
export function nudgeDeliverer() {
  nudge?.();
}

/**
 * Writes a delivery row in the caller's transaction (the one that changes the message's or run's
 * state): it is delivered if and only if that change commits. The body is fixed here, so every
 * attempt and redelivery sends the same bytes.
 */
export async function enqueueCallback(
  tx: Db,
  opts: { organizationId: string; agentId: string; subjectId: string; event: string; url: string; data: unknown },
): Promise<string> {
  const id = newId("dlv");
  const now = new Date();
  const body = JSON.stringify({ type: opts.event, timestamp: now.toISOString(), data: opts.data });
  await tx.callbackDelivery.create({
    data: {
      id,
      organizationId: opts.organizationId,
      agentId: opts.agentId,
      subjectId: opts.subjectId,
      event: opts.event,
      url: opts.url,
      body,
      nextAttemptAt: now,
      createdAt: now,
    },
  });
  return id;
}
