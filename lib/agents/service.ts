// Agents: create, list, get, update, archive (management API and console), and the lookup every
// public route does for the agent in its path.
import { ApiError } from "../errors";
import type { z } from "zod";
import { prisma } from "../db";
import { env } from "../env";
import type { Agent, Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import { secretIds } from "../secrets/service";
import type { CreateAgentBody, AgentList, AgentRecord } from "./schemas";
import { audit, type Actor } from "../audit";
import { assertCredentials, credentialRefs } from "../secrets/credentials";
import { redactConfig } from "./redact";
import { processOnce } from "../process-state";
import { afterCursor, pageOf } from "../pagination";
import { rolloutOf } from "../serving";

export type AgentRow = Agent;

/** The agent as every answer shows it: credentials in its runtime and workflow redacted (./redact.ts). */
type AgentAnswer = z.output<typeof AgentRecord>;

export function agentRecord(a: Agent): AgentAnswer {
  return {
    agent_id: a.id,
    organization_id: a.organizationId,
    project_id: a.projectId,
    name: a.name,
    kind: a.kind,
    // Stored only after CreateAgentBody / UpdateAgentBody validated them.
    runtime: redactConfig(a.runtime) as AgentAnswer["runtime"],
    workflow: redactConfig(a.workflow ?? null) as AgentAnswer["workflow"],
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
    archived_at: a.archivedAt?.toISOString() ?? null,
    callback_url: a.callbackUrl ?? null,
    published_version: a.publishedVersion,
    draft_version: a.draftVersion ?? null,
    previous_version: a.previousVersion ?? null,
    rollout: rolloutOf(a),
  };
}

const notFound = () => new ApiError("agent_not_found", "Agent not found.");

// lib/archived.ts holds the check, below the domains that refuse new work; named here too for the
// routes and lib/http, which find an agent's checks with the agent.
export { assertNotArchived } from "../archived";

const agentCache = processOnce("agentCache", () => new Map<string, { agent: Agent; expires: number }>());
const MAX_CACHED_AGENTS = 10_000;

/**
 * The agent in a public route's path, cached as briefly as verified keys (KEY_CACHE_TTL_MS): the
 * public API reads it on every request. An update evicts it at once in this process; other
 * processes see it within the TTL.
 */
export async function agentForRequest(
  organizationId: string,
  agentId: string,
  /** An Access Key's agent scope (empty: every agent): another agent is missing, as another organization's is. */
  scope: readonly string[] = [],
): Promise<Agent> {
  if (scope.length > 0 && !scope.includes(agentId)) throw notFound();
  const key = `${organizationId}/${agentId}`;
  const now = Date.now();
  const hit = agentCache.get(key);
  if (hit && hit.expires > now) return hit.agent;
  const agent = await loadAgentForKey(organizationId, agentId);
  const ttl = env().KEY_CACHE_TTL_MS;
  if (ttl > 0) {
    if (agentCache.size >= MAX_CACHED_AGENTS) agentCache.clear();
    agentCache.set(key, { agent, expires: now + ttl });
  }
  return agent;
}

/** Forgets this process's cached copy of an agent (after a change to what serves it). */
export function evictAgent(organizationId: string, agentId: string) {
  agentCache.delete(`${organizationId}/${agentId}`);
}

/** The agent in a path, read now; another organization's agent is reported as missing. */
export async function loadAgentForKey(organizationId: string, agentId: string): Promise<Agent> {
  if (!/^agt_[0-9A-Za-z]{1,64}$/.test(agentId)) throw notFound();
  const db = await prisma();
  const agent = await db.agent.findFirst({ where: { id: agentId, organizationId } });
  if (!agent) throw notFound();
  return agent;
}

export async function resolveProject(organizationId: string, projectId?: string): Promise<string> {
  const db = await prisma();
  const project = projectId
    ? await db.project.findFirst({ where: { id: projectId, organizationId } })
    : await db.project.findFirst({ where: { organizationId }, orderBy: { createdAt: "asc" } });
  if (!project) {
    throw new ApiError("invalid_request", "Invalid body: project_id: no such project in this organization", {
      fields: [{ field: "project_id", message: "no such project in this organization" }],
    });
  }
  return project.id;
}

/**
 * Refuses a configuration naming a secret the organization lacks or an environment variable the
 * operator does not allow (400 invalid_agent); returns the ids and fields of the secrets it names.
 */
export async function checkCredentials(organizationId: string, runtime: unknown, workflow: unknown) {
  const refs = credentialRefs(runtime, workflow);
  const ids = refs.some((r) => "secret" in r) ? await secretIds(organizationId) : new Map<string, string>();
  const named = assertCredentials(refs, new Set(ids.keys()));
  return named.map((name) => ({
    id: ids.get(name)!,
    name,
    fields: refs.filter((r) => "secret" in r && r.secret === name).map((r) => r.field),
  }));
}

/** An audit row per secret an agent's saved configuration names. */
export async function auditSecretUse(
  organizationId: string,
  actor: Actor,
  agentId: string,
  secrets: Awaited<ReturnType<typeof checkCredentials>>,
) {
  for (const s of secrets) {
    await audit({
      organizationId,
      actor,
      action: "secret.referenced",
      targetType: "secret",
      targetId: s.id,
      data: { name: s.name, agent_id: agentId, fields: s.fields },
    });
  }
}

export async function createAgent(opts: {
  organizationId: string;
  input: CreateAgentBody;
  actor: Actor;
}): Promise<z.output<typeof AgentRecord>> {
  const { organizationId, input } = opts;
  const projectId = await resolveProject(organizationId, input.project_id);
  const secrets = await checkCredentials(organizationId, input.runtime, input.workflow);
  const db = await prisma();
  const agent = await db.agent.create({
    data: {
      id: newId("agt"),
      organizationId,
      projectId,
      name: input.name,
      kind: input.kind,
      runtime: input.runtime,
      workflow: input.workflow as Prisma.InputJsonValue | undefined,
      callbackUrl: input.callback_url ?? null,
      // Version 1, published: a new agent serves at once, as before versions (docs/api.md, Versions).
      versions: {
        create: {
          version: 1,
          organizationId,
          runtime: input.runtime,
          workflow: input.workflow as Prisma.InputJsonValue | undefined,
          callbackUrl: input.callback_url ?? null,
          actorType: opts.actor.type,
          actorId: opts.actor.id ?? null,
          actorLabel: opts.actor.label ?? null,
          publishedAt: new Date(),
        },
      },
    },
  });
  await audit({ organizationId, actor: opts.actor, action: "agent.created", targetType: "agent", targetId: agent.id });
  await auditSecretUse(organizationId, opts.actor, agent.id, secrets);
  return agentRecord(agent);
}

/**
 * A page of the organization's agents, newest first, after `cursor` (docs/api.md, Paging); archived
 * agents only with `includeArchived` (the console always asks for them and badges them). Without
 * `limit`, every agent after the cursor (the console's agent pickers).
 */
export async function listAgents(opts: {
  organizationId: string;
  includeArchived?: boolean;
  limit?: number;
  cursor?: string;
}): Promise<z.output<typeof AgentList>> {
  const db = await prisma();
  const rows = await db.agent.findMany({
    where: {
      AND: [
        { organizationId: opts.organizationId, ...(opts.includeArchived ? {} : { archivedAt: null }) },
        afterCursor("createdAt", opts.cursor),
      ],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    ...(opts.limit ? { take: opts.limit + 1 } : {}),
  });
  if (!opts.limit) return { agents: rows.map(agentRecord), has_more: false, next_cursor: null };
  const page = pageOf(rows, opts.limit, (a) => a.createdAt);
  return { agents: page.rows.map(agentRecord), has_more: page.has_more, next_cursor: page.next_cursor };
}

export async function getAgent(opts: {
  organizationId: string;
  agentId: string;
}): Promise<z.output<typeof AgentRecord>> {
  return agentRecord(await loadAgentForKey(opts.organizationId, opts.agentId));
}

/**
 * Archives an agent (DELETE): from now on it takes no new triggers or uploads; its sessions,
 * messages, runs and files stay readable and runs keep their controls. Idempotent: archiving an
 * archived agent changes nothing and answers the same record; the audit event is written once.
 */
export async function archiveAgent(opts: {
  organizationId: string;
  agentId: string;
  actor: Actor;
}): Promise<z.output<typeof AgentRecord>> {
  const current = await loadAgentForKey(opts.organizationId, opts.agentId);
  const db = await prisma();
  const agent = await db.$transaction(async (tx) => {
    const { count } = await tx.agent.updateMany({
      where: { id: current.id, archivedAt: null },
      data: { archivedAt: new Date() },
    });
    if (count === 1) {
      await audit({
        tx,
        organizationId: opts.organizationId,
        actor: opts.actor,
        action: "agent.archived",
        targetType: "agent",
        targetId: current.id,
        data: { name: current.name, kind: current.kind },
      });
    }
    return tx.agent.findUniqueOrThrow({ where: { id: current.id } });
  });
  // This process refuses triggers at once; others within KEY_CACHE_TTL_MS (their cached copy expires).
  agentCache.delete(`${opts.organizationId}/${current.id}`);
  return agentRecord(agent);
}
