// Organization secrets: set (create or replace), list, delete, and the lookup the runtimes use at
// call time. Values are sealed at rest (lib/auth/sealed.ts) and never leave through an answer, a
// log or the audit trail: answers carry the name, a 4-character hint and times.
import { credentialRefs } from "./credentials";
import { audit, type Actor } from "../audit";
import { sealer } from "../auth/sealed";
import { prisma } from "../db";
import { rolloutOf } from "../serving";
import { env } from "../env";
import { ApiError } from "../errors";
import type { OrgSecret } from "../generated/prisma/client";
import { newId } from "../ids";
import { MAX_SECRETS, type SecretRecord } from "./schemas";
import { processOnce } from "../process-state";
import { afterText, pageOf } from "../pagination";

const box = sealer("agent-webhook-service/organization-secret/v1");
/** Bound to its organization and name: a sealed value moved to another row does not open. */
const aad = (organizationId: string, name: string) => `${organizationId}/${name}`;

/** The last 4 characters, only for values long enough that 4 characters give little away. */
const hintOf = (value: string) => (value.length >= 12 ? value.slice(-4) : null);

type Usage = SecretRecord["used_by"];

/**
 * Which agents of the organization name each secret, and in which fields: in the configuration that
 * serves, the published version's and a canary rollout's (docs/api.md, Versions). A draft's or an
 * older version's do not hold a secret: publishing or pinning them is refused once it is gone.
 */
async function usageByName(organizationId: string): Promise<Map<string, Usage>> {
  const db = await prisma();
  const agents = await db.agent.findMany({
    where: { organizationId },
    select: { id: true, name: true, runtime: true, workflow: true, rollout: true },
    orderBy: { createdAt: "asc" },
  });
  const canaries = await db.agentVersion.findMany({
    where: {
      OR: agents.flatMap((a) => {
        const r = rolloutOf(a);
        return r ? [{ agentId: a.id, version: r.version }] : [];
      }),
    },
    select: { agentId: true, runtime: true, workflow: true },
  });
  const usage = new Map<string, Usage>();
  for (const a of agents) {
    const fields = new Map<string, string[]>();
    const canary = canaries.find((c) => c.agentId === a.id);
    const refs = [
      ...credentialRefs(a.runtime, a.workflow),
      ...(canary ? credentialRefs(canary.runtime, canary.workflow) : []),
    ];
    for (const ref of refs) {
      if ("secret" in ref && fields.get(ref.secret)?.includes(ref.field)) continue;
      if ("secret" in ref) fields.set(ref.secret, [...(fields.get(ref.secret) ?? []), ref.field]);
    }
    for (const [name, f] of fields) {
      usage.set(name, [...(usage.get(name) ?? []), { agent_id: a.id, name: a.name, fields: f }]);
    }
  }
  return usage;
}

function secretRecord(row: OrgSecret, usedBy: Usage): SecretRecord {
  return {
    secret_id: row.id,
    name: row.name,
    hint: row.hint || null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    used_by: usedBy,
  };
}

const notFound = (name: string) =>
  new ApiError("secret_not_found", `No organization secret named "${name}".`, { name });

/** The management API's list: a page of secrets by name, after `cursor` (docs/api.md, Paging); every
 *  secret when `limit` is absent. Names are unique in an organization: the name alone orders them. */
export async function listSecretPage(opts: { organizationId: string; limit?: number; cursor?: string }) {
  const db = await prisma();
  const rows = await db.orgSecret.findMany({
    where: { AND: [{ organizationId: opts.organizationId }, afterText("name", opts.cursor)] },
    orderBy: { name: "asc" },
    ...(opts.limit ? { take: opts.limit + 1 } : {}),
  });
  const page = opts.limit ? pageOf(rows, opts.limit, (r) => r.name) : { rows, has_more: false, next_cursor: null };
  const usage = await usageByName(opts.organizationId);
  return {
    secrets: page.rows.map((r) => secretRecord(r, usage.get(r.name) ?? [])),
    has_more: page.has_more,
    next_cursor: page.next_cursor,
  };
}

/** The organization's secrets, name to id (agents are checked against them when saved). */
export async function secretIds(organizationId: string): Promise<Map<string, string>> {
  const db = await prisma();
  const rows = await db.orgSecret.findMany({ where: { organizationId }, select: { name: true, id: true } });
  return new Map(rows.map((r) => [r.name, r.id]));
}

/** Creates the secret or replaces its value (a rotation): agents naming it use the new value from their next call. */
export async function setSecret(opts: { organizationId: string; name: string; value: string; actor: Actor }) {
  const { organizationId, name, value, actor } = opts;
  const db = await prisma();
  const sealed = { ciphertext: box.seal(value, aad(organizationId, name)), hint: hintOf(value) ?? "" };
  const { row, created } = await db.$transaction(async (tx) => {
    const existing = await tx.orgSecret.findUnique({ where: { organizationId_name: { organizationId, name } } });
    if (!existing && (await tx.orgSecret.count({ where: { organizationId } })) >= MAX_SECRETS) {
      throw new ApiError("invalid_request", `An organization holds at most ${MAX_SECRETS} secrets; delete one first.`);
    }
    const now = new Date();
    const row = existing
      ? await tx.orgSecret.update({
          where: { id: existing.id },
          data: { ...sealed, updatedAt: now, updatedByUserId: actor.type === "user" ? actor.id : null },
        })
      : await tx.orgSecret.create({
          data: {
            id: newId("sec"),
            organizationId,
            name,
            ...sealed,
            createdAt: now,
            updatedAt: now,
            updatedByUserId: actor.type === "user" ? actor.id : null,
          },
        });
    await audit({
      tx,
      organizationId,
      actor,
      action: existing ? "secret.rotated" : "secret.created",
      targetType: "secret",
      targetId: row.id,
      data: { name, hint: row.hint || null },
    });
    return { row, created: !existing };
  });
  forget(organizationId);
  const usage = await usageByName(organizationId);
  return { secret: secretRecord(row, usage.get(name) ?? []), created };
}

/** Deletes a secret no agent names (409 secret_in_use otherwise, listing them). */
export async function deleteSecret(opts: { organizationId: string; name: string; actor: Actor }) {
  const { organizationId, name } = opts;
  const db = await prisma();
  const row = await db.orgSecret.findUnique({ where: { organizationId_name: { organizationId, name } } });
  if (!row) throw notFound(name);
  const usedBy = (await usageByName(organizationId)).get(name) ?? [];
  if (usedBy.length) {
    throw new ApiError(
      "secret_in_use",
      `The secret "${name}" is named by ${usedBy.length} agent${usedBy.length === 1 ? "" : "s"}: change ${usedBy.length === 1 ? "it" : "them"} first.`,
      { used_by: usedBy },
    );
  }
  await db.$transaction(async (tx) => {
    const { count } = await tx.orgSecret.deleteMany({ where: { id: row.id } });
    if (count === 0) throw notFound(name);
    await audit({
      tx,
      organizationId,
      actor: opts.actor,
      action: "secret.deleted",
      targetType: "secret",
      targetId: row.id,
      data: { name },
    });
  });
  forget(organizationId);
  return { name, deleted: true as const };
}

// ---- the runtimes' lookup ----

interface Cached {
  expires: number;
  rows: Map<string, string>;
}
const cache = processOnce("secretCache", () => new Map<string, Cached>());
const MAX_CACHED_ORGS = 10_000;

/** Another process sees a change within KEY_CACHE_TTL_MS; this one at once. */
function forget(organizationId: string) {
  cache.delete(organizationId);
}

async function sealedRows(organizationId: string): Promise<Map<string, string>> {
  const now = Date.now();
  const hit = cache.get(organizationId);
  if (hit && hit.expires > now) return hit.rows;
  const db = await prisma();
  const rows = await db.orgSecret.findMany({ where: { organizationId }, select: { name: true, ciphertext: true } });
  const map = new Map(rows.map((r) => [r.name, r.ciphertext]));
  const ttl = env().KEY_CACHE_TTL_MS;
  if (ttl > 0) {
    if (cache.size >= MAX_CACHED_ORGS) cache.clear();
    cache.set(organizationId, { expires: now + ttl, rows: map });
  }
  return map;
}

/**
 * The lookup an agent's runtime uses for its credentials, bound to the agent's organization: one
 * organization's agents can never read another's secrets. Only sealed values are cached; a value is
 * opened at the call that needs it; a name the organization has not set answers undefined (the
 * runtime turns it into its error, lib/runtime/credentials.ts).
 */
export function secretLookup(organizationId: string): (name: string) => Promise<string | undefined> {
  return async (name) => {
    const sealed = (await sealedRows(organizationId)).get(name);
    return sealed === undefined ? undefined : box.open(sealed, aad(organizationId, name));
  };
}
