// The audit trail: who did what to which resource, when. Actors are made here only.
import type { KeyPrincipal } from "./auth/access-keys";
import { prisma } from "./db";
import { newId } from "./ids";
import type { Prisma } from "./generated/prisma/client";

export interface Actor {
  type: "user" | "access_key" | "system";
  id?: string;
  label?: string;
}

export const keyActor = (key: KeyPrincipal): Actor => ({ type: "access_key", id: key.keyId, label: key.name });

export const userActor = (user: { userId: string; email: string }): Actor => ({
  type: "user",
  id: user.userId,
  label: user.email,
});

export const systemActor = (label = "system"): Actor => ({ type: "system", label });

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
