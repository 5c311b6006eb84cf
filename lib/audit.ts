// The audit trail: who did what to which resource, when. Actors are made here only.
import type { AuditAction } from "./audit-actions";
import { prisma } from "./db";
import { newId } from "./ids";
import type { AuditEvent, Prisma } from "./generated/prisma/client";
import { afterCursor, instantRange, pageOf } from "./pagination";

export interface Actor {
  type: "user" | "access_key" | "system";
  id?: string;
  label?: string;
}

/** Takes the key's fields rather than lib/auth's type: lib/auth records into the audit trail, so it sits above. */
export const keyActor = (key: { keyId: string; name: string }): Actor => ({
  type: "access_key",
  id: key.keyId,
  label: key.name,
});

export const userActor = (user: { userId: string; email: string }): Actor => ({
  type: "user",
  id: user.userId,
  label: user.email,
});

export const systemActor = (label = "system"): Actor => ({ type: "system", label });

/** `key` of `key.created`: what the log's `key.*` filter reads through an index. */
const actionGroup = (action: string) => action.split(".", 1)[0]!;

/** Records one event; `action` is one of lib/audit-actions.ts's list (a new one is added there first). */
export async function audit(opts: {
  organizationId: string;
  actor: Actor;
  action: AuditAction;
  targetType: string;
  targetId: string;
  data?: Prisma.InputJsonValue;
  tx?: Prisma.TransactionClient;
}) {
  const db = opts.tx ?? (await prisma());
  await db.auditEvent.create({
    data: {
      id: newId("evt"),
      organizationId: opts.organizationId,
      actorType: opts.actor.type,
      actorId: opts.actor.id,
      actorLabel: opts.actor.label,
      action: opts.action,
      actionGroup: actionGroup(opts.action),
      targetType: opts.targetType,
      targetId: opts.targetId,
      data: opts.data ?? {},
    },
  });
}

export function auditRecord(e: AuditEvent) {
  return {
    event_id: e.id,
    at: e.createdAt.toISOString(),
    actor: { type: e.actorType, id: e.actorId, label: e.actorLabel },
    action: e.action,
    target: { type: e.targetType, id: e.targetId },
    data: e.data,
  };
}

/**
 * The organization's audit log, newest first; `action` filters by exact action or `prefix.*`.
 * `cursor` (a previous page's `next_cursor`) continues after that page on the index.
 */
export async function listAuditEvents(opts: {
  organizationId: string;
  action?: string;
  from?: Date;
  to?: Date;
  limit: number;
  cursor?: string;
}) {
  const db = await prisma();
  // `group.*` reads the group's index; a deeper prefix (`a.b.*`) narrows it further by filter.
  const prefix = opts.action?.endsWith(".*") ? opts.action.slice(0, -1) : undefined;
  const filter = prefix
    ? {
        actionGroup: actionGroup(prefix),
        ...(prefix.indexOf(".") < prefix.length - 1 ? { action: { startsWith: prefix } } : {}),
      }
    : opts.action
      ? { action: opts.action }
      : {};
  const where = {
    AND: [
      { organizationId: opts.organizationId, ...filter, ...instantRange("createdAt", opts) },
      afterCursor("createdAt", opts.cursor),
    ],
  };
  const rows = await db.auditEvent.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: opts.limit + 1,
  });
  const page = pageOf(rows, opts.limit, (e) => e.createdAt);
  return { events: page.rows.map(auditRecord), has_more: page.has_more, next_cursor: page.next_cursor };
}
