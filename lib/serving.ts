// Which agent version serves a trigger, and its configuration (docs/api.md, Versions). Below the
// domains that serve triggers (lib/conversations, lib/workflow) and lib/agents, which changes what
// serves: the agent row carries the published version's configuration (`runtime`, `workflow`,
// `callbackUrl`), so the common case costs nothing but the agent lookup the route already made; a
// canary's version, a pinned one or an older session's is read once per process and kept, since a
// version that was published never changes.
import { createHash } from "node:crypto";
import { prisma } from "./db";
import { ApiError } from "./errors";
import type { Agent } from "./generated/prisma/client";
import { log } from "./log";
import { processOnce } from "./process-state";

/** A canary rollout as the agent row stores it (lib/agents/versions.ts writes it). */
export type Rollout = {
  version: number;
  percent: number;
  from_version: number;
  guard_rule_ids: string[];
  started_at: string;
  updated_at: string;
};

/** The agent's rollout, or null. */
export const rolloutOf = (agent: Pick<Agent, "rollout">): Rollout | null =>
  agent.rollout && typeof agent.rollout === "object" ? (agent.rollout as unknown as Rollout) : null;

/**
 * Where `key` (an end user, else a session or run id) falls among 10,000 buckets of the rollout of
 * `version`: the same key always falls in the same bucket, so raising the share keeps everyone who
 * had the new version on it.
 */
export function canaryBucket(agentId: string, version: number, key: string): number {
  return createHash("sha256").update(`${agentId}\u0000${version}\u0000${key}`).digest().readUInt32BE(0) % 10_000;
}

/** The version a new session or run of `agent` gets: the canary's for its share of keys, else the published one. */
export function servingVersion(agent: Agent, key: string): number {
  const rollout = rolloutOf(agent);
  if (rollout && canaryBucket(agent.id, rollout.version, key) < rollout.percent * 100) return rollout.version;
  return agent.publishedVersion;
}

/** An agent with the configuration of one of its versions: what a reply or run of that version uses. */
export type AgentAtVersion = Agent & { servedVersion: number };

interface CachedVersion {
  runtime: Agent["runtime"];
  workflow: Agent["workflow"];
  callbackUrl: string | null;
  published: boolean;
}

const MAX_CACHED = 10_000;
const cache = processOnce("agentVersionCache", () => new Map<string, CachedVersion>());

async function readVersion(agent: Agent, version: number): Promise<CachedVersion | null> {
  const key = `${agent.id}/${version}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const db = await prisma();
  const row = await db.agentVersion.findUnique({
    where: { agentId_version: { agentId: agent.id, version } },
    select: { runtime: true, workflow: true, callbackUrl: true, publishedAt: true },
  });
  if (!row) return null;
  const found = {
    runtime: row.runtime,
    workflow: row.workflow,
    callbackUrl: row.callbackUrl,
    published: !!row.publishedAt,
  };
  // Only what was published is fixed for ever; a draft may yet be published (and is read again then).
  if (found.published) {
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(key, found);
  }
  return found;
}

/**
 * `agent` with the configuration of `version`. The published version is the row itself; another
 * that cannot be found (an agent created by a release before versions has no rows until an admin
 * touches its versions) falls back to the published configuration, logged.
 */
export async function agentAt(agent: Agent, version: number | null): Promise<AgentAtVersion> {
  if (version === null || version === agent.publishedVersion) {
    return { ...agent, servedVersion: agent.publishedVersion };
  }
  const row = await readVersion(agent, version);
  if (!row) {
    log.warn({ agent_id: agent.id, agent_version: version }, "agent version not found; serving the published one");
    return { ...agent, servedVersion: agent.publishedVersion };
  }
  return {
    ...agent,
    runtime: row.runtime,
    workflow: row.workflow,
    callbackUrl: row.callbackUrl,
    servedVersion: version,
  };
}

/**
 * What a usage event adds to name its version: the version while the agent has a canary rollout (its
 * figures and guards read them: lib/usage/recorder.ts), nothing otherwise.
 */
export const versionUsage = (agent: AgentAtVersion): { agentVersion?: number } =>
  rolloutOf(agent) ? { agentVersion: agent.servedVersion } : {};

/**
 * A trigger's `agent_version`: a version of this agent that is or was published (the console's test
 * console may also name the draft). Anything else is 400 invalid_agent_version naming the field.
 */
export async function pinnedVersion(
  agent: Agent,
  value: unknown,
  opts: { allowDraft?: boolean } = {},
): Promise<number | null> {
  if (value === undefined || value === null) return null;
  const refuse = (message: string) =>
    new ApiError("invalid_agent_version", `Invalid body: agent_version ${message}`, {
      fields: [{ field: "agent_version", message }],
    });
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > 2_147_483_647) {
    throw refuse("must be a version number (an integer from 1)");
  }
  if (value === agent.publishedVersion) return value;
  if (opts.allowDraft && value === agent.draftVersion) return value;
  const row = await readVersion(agent, value);
  if (!row) throw refuse(`is not a version of this agent (its published version is ${agent.publishedVersion})`);
  if (!row.published) throw refuse("was never published: only a published version (current or earlier) can serve");
  return value;
}
