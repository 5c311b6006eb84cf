// The audit trail: who did what to which resource, when.
import { prisma } from "./db";
import { newId } from "./ids";
import type { Prisma } from "./generated/prisma/client";

export interface Actor {
  type: "user" | "access_key" | "system";
  id?: string;
  label?: string;
}

export async function audit(opts: {
  organizationId: string;
  actor: Actor;
  action: string;
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
      targetType: opts.targetType,
      targetId: opts.targetId,
      data: opts.data ?? {},
    },
  });
}
