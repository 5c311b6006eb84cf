// Agent versions (docs/api.md, Versions; docs/decisions.md, 52): an agent's configuration lives in
// numbered versions that never change once written. An edit writes a new draft version (based on the
// draft, or on the newest published version when there is none), which is never served; publishing makes
// the draft live, for every new session and run or for a share of them (a canary rollout); rollback
// makes live again what served before. The agent row keeps the published version's configuration
// (lib/serving.ts reads it on the hot paths) and the pointers: published, draft, previous, rollout.
//
// Every change takes the agent's row lock, so that two admins never both win: a write names the head
// it read (the draft, or the published version), and a head that moved since answers 409
// draft_conflict naming the newer one. The checks that read other tables (credentials, guard rules)
// run before the transaction: the embedded database has one connection, which an open transaction holds.
import type { z } from "zod";
import { audit, type Actor } from "../audit";
import { prisma } from "../db";
import { ApiError } from "../errors";
import type { Agent, AgentVersion, Prisma } from "../generated/prisma/client";
import { decodeCursor, encodeCursor } from "../pagination";
import { RuntimeConfig } from "../runtime/schema";
import { rolloutOf, type Rollout } from "../serving";
import { fieldErrors, fieldSentence } from "../validation-messages";
import { versionFigures } from "../usage/versions";
import { StoredWorkflowDefinition } from "../workflow/schema";
import { CallbackUrl } from "../callbacks/schemas";
import { diffConfigs, sameConfig, type VersionConfig } from "./diff";
import { restoreRedacted } from "./redact";
import type {
  AgentRecord,
  PublishBody,
  PublishPreview,
  RestoreBody,
  RolloutReport,
  UpdateAgentBody,
  VersionDiff,
  VersionList,
  VersionRecord,
} from "./schemas";
import { agentRecord, auditSecretUse, checkCredentials, evictAgent, loadAgentForKey, resolveProject } from "./service";

type AgentAnswer = z.output<typeof AgentRecord>;
type Tx = Prisma.TransactionClient;

const configOf = (row: Pick<Agent, "runtime" | "workflow" | "callbackUrl">): VersionConfig => ({
  runtime: row.runtime,
  workflow: row.workflow ?? null,
  callbackUrl: row.callbackUrl ?? null,
});

/** The pointers an audit event shows before and after a change. */
const servingState = (a: Agent) => ({
  published_version: a.publishedVersion,
  draft_version: a.draftVersion ?? null,
  previous_version: a.previousVersion ?? null,
  rollout: rolloutOf(a),
});

/**
 * The version an edit is made on, and the agent's ETag: the draft; else a rollout's new version (the
 * newest published); else the published version.
 */
const head = (a: Pick<Agent, "draftVersion" | "publishedVersion" | "rollout">) =>
  a.draftVersion ?? rolloutOf(a)?.version ?? a.publishedVersion;

const notFound = (version: number) =>
  new ApiError("agent_version_not_found", `This agent has no version ${version}.`, { version });

function draftConflict(a: Agent, named: number | undefined) {
  const message =
    named === undefined
      ? `The agent has a draft (version ${a.draftVersion}): name it as base_version (or If-Match: "v${a.draftVersion}") to edit it.`
      : `The agent changed since version ${named} was read: its ${a.draftVersion ? "draft" : "newest published version"} is now version ${head(a)}. Read it again and redo the edit.`;
  return new ApiError("draft_conflict", message, {
    base_version: named ?? null,
    head_version: head(a),
    draft_version: a.draftVersion ?? null,
    published_version: a.publishedVersion,
  });
}

/**
 * The version a write names: `base_version` in the body, else `If-Match` (`"v9"`, as the agent's
 * ETag; `*` means the head, whatever it is). Both given must agree.
 */
export function writePrecondition(baseVersion: number | undefined, ifMatch: string | null | undefined) {
  let fromHeader: number | "any" | undefined;
  if (ifMatch) {
    const tag = ifMatch.trim();
    if (tag === "*") fromHeader = "any";
    else {
      const m = /^(?:W\/)?"v?([1-9]\d{0,8})"$/.exec(tag);
      if (!m) {
        throw new ApiError("invalid_request", 'Invalid header: If-Match must be an ETag of the agent, such as "v7"', {
          fields: [{ field: "If-Match", message: 'must be an ETag of the agent, such as "v7"' }],
        });
      }
      fromHeader = Number(m[1]);
    }
  }
  if (baseVersion !== undefined && typeof fromHeader === "number" && fromHeader !== baseVersion) {
    throw new ApiError("invalid_request", "Invalid body: base_version differs from the If-Match header", {
      fields: [{ field: "base_version", message: "differs from the If-Match header" }],
    });
  }
  return baseVersion ?? fromHeader;
}

/** Refuses a write whose base is not the agent's head; without a base, refuses when a draft exists. */
function checkBase(a: Agent, base: number | "any" | undefined) {
  if (base === "any") return;
  if (base === undefined ? a.draftVersion !== null : base !== head(a)) throw draftConflict(a, base);
}

async function lockAgent(tx: Tx, organizationId: string, agentId: string): Promise<Agent> {
  await tx.$queryRaw`SELECT id FROM agents WHERE id = ${agentId} AND organization_id = ${organizationId} FOR UPDATE`;
  const agent = await tx.agent.findFirst({ where: { id: agentId, organizationId } });
  if (!agent) throw new ApiError("agent_not_found", "Agent not found.");
  return agent;
}

/**
 * Version 1 of an agent created by a release before versions (during a rolling deploy) is written
 * from its row the first time its versions are touched.
 */
async function ensureVersionRows(agent: Agent) {
  const db = await prisma();
  await db.$executeRaw`
    INSERT INTO agent_versions (agent_id, version, organization_id, runtime, workflow, callback_url, note, actor_type,
      actor_label, created_at, published_at)
    SELECT id, published_version, organization_id, runtime, workflow, callback_url, 'Configuration before versions',
      'system', 'migration', created_at, created_at
    FROM agents WHERE id = ${agent.id}
    ON CONFLICT (agent_id, version) DO NOTHING`;
}

async function findVersion(db: Tx, agent: Agent, version: number): Promise<AgentVersion> {
  const row = await db.agentVersion.findUnique({ where: { agentId_version: { agentId: agent.id, version } } });
  if (!row) throw notFound(version);
  return row;
}

/** The agent (of the organization) and one of its versions; a version of another agent is missing. */
async function agentAndVersion(organizationId: string, agentId: string, version: number) {
  const agent = await loadAgentForKey(organizationId, agentId);
  await ensureVersionRows(agent);
  return { agent, row: await findVersion(await prisma(), agent, version) };
}

export type VersionState = "draft" | "published" | "rollout" | "superseded" | "retired" | "rolled_back";

function stateOf(a: Agent, v: AgentVersion): { state: VersionState; traffic: number } {
  const rollout = rolloutOf(a);
  if (rollout?.version === v.version) return { state: "rollout", traffic: rollout.percent };
  if (v.version === a.publishedVersion) return { state: "published", traffic: 100 - (rollout?.percent ?? 0) };
  if (v.version === a.draftVersion) return { state: "draft", traffic: 0 };
  if (!v.publishedAt) return { state: "superseded", traffic: 0 };
  return { state: v.rolledBackAt ? "rolled_back" : "retired", traffic: 0 };
}

function versionListItem(a: Agent, v: AgentVersion) {
  const { state, traffic } = stateOf(a, v);
  return {
    agent_id: v.agentId,
    version: v.version,
    state,
    traffic_percent: traffic,
    note: v.note ?? null,
    base_version: v.baseVersion ?? null,
    created_by: {
      type: v.actorType as "user" | "access_key" | "system",
      id: v.actorId ?? null,
      label: v.actorLabel ?? null,
    },
    created_at: v.createdAt.toISOString(),
    published_at: v.publishedAt?.toISOString() ?? null,
    rolled_back_at: v.rolledBackAt?.toISOString() ?? null,
  };
}

/** A version as answers show it: its configuration redacted like every agent answer (./redact.ts). */
function versionRecord(a: Agent, v: AgentVersion): z.output<typeof VersionRecord> {
  const shown = agentRecord({ ...a, runtime: v.runtime, workflow: v.workflow, callbackUrl: v.callbackUrl });
  return {
    ...versionListItem(a, v),
    runtime: shown.runtime,
    workflow: shown.workflow,
    callback_url: shown.callback_url,
  };
}

/** The agent's versions, newest first, a page at a time (docs/api.md, Paging). */
export async function listVersions(opts: {
  organizationId: string;
  agentId: string;
  limit: number;
  cursor?: string;
}): Promise<z.output<typeof VersionList>> {
  const agent = await loadAgentForKey(opts.organizationId, opts.agentId);
  await ensureVersionRows(agent);
  let before: number | undefined;
  if (opts.cursor) {
    const { at, id } = decodeCursor(opts.cursor);
    if (typeof at !== "number" || id !== agent.id) {
      throw new ApiError(
        "invalid_request",
        "cursor is not a cursor of this list: pass the next_cursor of its previous page.",
        {
          fields: [{ field: "cursor", message: "is not a cursor of this list" }],
        },
      );
    }
    before = at;
  }
  const db = await prisma();
  const rows = await db.agentVersion.findMany({
    where: { agentId: agent.id, ...(before !== undefined ? { version: { lt: before } } : {}) },
    orderBy: { version: "desc" },
    take: opts.limit + 1,
  });
  const page = rows.slice(0, opts.limit);
  const last = page.at(-1);
  const next_cursor = rows.length > opts.limit && last ? encodeCursor({ at: last.version, id: agent.id }) : null;
  return { versions: page.map((v) => versionListItem(agent, v)), has_more: next_cursor !== null, next_cursor };
}

export async function getVersion(opts: {
  organizationId: string;
  agentId: string;
  version: number;
}): Promise<z.output<typeof VersionRecord>> {
  const { agent, row } = await agentAndVersion(opts.organizationId, opts.agentId, opts.version);
  return versionRecord(agent, row);
}

/** What changes from version `from` to version `to`. */
export async function diffVersions(opts: {
  organizationId: string;
  agentId: string;
  from: number;
  to: number;
}): Promise<z.output<typeof VersionDiff>> {
  const { agent, row: a } = await agentAndVersion(opts.organizationId, opts.agentId, opts.from);
  const b = await findVersion(await prisma(), agent, opts.to);
  return {
    agent_id: agent.id,
    from_version: a.version,
    to_version: b.version,
    changes: diffConfigs(configOf(a), configOf(b)),
  };
}

/**
 * A configuration as it must be to serve: the runtime and workflow schemas of today (a version made
 * by an older release may no longer pass), the workflow by the agent's kind, and the credentials it
 * names (400 invalid_agent). Field paths are those of an agent body (`runtime.url`).
 */
async function assertServable(agent: Agent, c: VersionConfig) {
  const fields: { field: string; message: string }[] = [];
  const check = (name: string, schema: z.ZodType, value: unknown) => {
    const r = schema.safeParse(value);
    if (!r.success)
      fields.push(...fieldErrors(r.error).map((f) => ({ ...f, field: `${name}.${f.field}`.replace(/\.$/, "") })));
  };
  check("runtime", RuntimeConfig, c.runtime);
  if (agent.kind === "workflow") check("workflow", StoredWorkflowDefinition, c.workflow);
  if (c.callbackUrl !== null) check("callback_url", CallbackUrl, c.callbackUrl);
  if (fields.length) {
    throw new ApiError("invalid_request", `Invalid version: ${fieldSentence(fields[0]!.field, fields[0]!.message)}`, {
      fields,
    });
  }
  return checkCredentials(agent.organizationId, c.runtime, c.workflow);
}

/** Writes `config` as the new draft (in `tx`, the agent locked): the next version number, based on `base`. */
async function writeDraft(
  tx: Tx,
  agent: Agent,
  config: VersionConfig,
  opts: { base: number; note?: string | null; actor: Actor; extra?: Prisma.AgentUpdateInput },
): Promise<Agent> {
  const version = agent.latestVersion + 1;
  await tx.agentVersion.create({
    data: {
      agentId: agent.id,
      version,
      organizationId: agent.organizationId,
      runtime: config.runtime as Prisma.InputJsonValue,
      workflow: (config.workflow ?? undefined) as Prisma.InputJsonValue | undefined,
      callbackUrl: config.callbackUrl,
      note: opts.note ?? null,
      baseVersion: opts.base,
      actorType: opts.actor.type,
      actorId: opts.actor.id ?? null,
      actorLabel: opts.actor.label ?? null,
    },
  });
  return tx.agent.update({
    where: { id: agent.id },
    data: { ...opts.extra, draftVersion: version, latestVersion: version },
  });
}

const fieldError = (field: string, message: string) =>
  new ApiError("invalid_request", `Invalid body: ${fieldSentence(field, message)}`, { fields: [{ field, message }] });

/**
 * PATCH .../agents/{agent_id}: `name` and `project_id` change the agent itself; `runtime`,
 * `workflow` and `callback_url` write the draft (created from the newest published version when
 * there is none: a rollout's new version while one is on), never served; `publish: true` then publishes it. The write names the head it read
 * (`base_version` or If-Match); without one it may only create the draft.
 */
export async function updateAgent(opts: {
  organizationId: string;
  agentId: string;
  input: UpdateAgentBody;
  actor: Actor;
  /** The request's If-Match header. */
  ifMatch?: string | null;
}): Promise<AgentAnswer> {
  const { input, organizationId } = opts;
  const current = await loadAgentForKey(organizationId, opts.agentId);
  if (input.kind && input.kind !== current.kind) throw fieldError("kind", "the kind of an agent cannot change");
  if (input.workflow && current.kind !== "workflow") {
    throw fieldError("workflow", "only workflow agents take a workflow definition");
  }
  const base = writePrecondition(input.base_version, opts.ifMatch);
  checkBase(current, base === undefined && !touchesConfig(input) ? "any" : base);
  const projectId = input.project_id ? await resolveProject(organizationId, input.project_id) : undefined;
  await ensureVersionRows(current);
  const db = await prisma();
  // The edit is made on the head read now; the transaction refuses it if the head moved meanwhile.
  const readHead = head(current);
  const baseRow = await findVersion(db, current, readHead);
  let next: VersionConfig | undefined;
  let secrets: Awaited<ReturnType<typeof checkCredentials>> = [];
  if (touchesConfig(input)) {
    next = {
      // Values the caller saw redacted and sent back unchanged keep what is stored.
      runtime: input.runtime ? restoreRedacted(input.runtime, baseRow.runtime) : baseRow.runtime,
      workflow: input.workflow ? restoreRedacted(input.workflow, baseRow.workflow) : (baseRow.workflow ?? null),
      callbackUrl: input.callback_url === undefined ? (baseRow.callbackUrl ?? null) : input.callback_url,
    };
    secrets = await checkCredentials(organizationId, next.runtime, next.workflow);
    if (sameConfig(next, configOf(baseRow))) next = undefined; // nothing changes: no new version
  }
  const agent = await db.$transaction(async (tx) => {
    const locked = await lockAgent(tx, organizationId, current.id);
    if (head(locked) !== readHead) throw draftConflict(locked, base === "any" ? readHead : (base ?? readHead));
    const extra: Prisma.AgentUpdateInput = {
      name: input.name,
      project: projectId ? { connect: { id: projectId } } : undefined,
    };
    const saved = next
      ? await writeDraft(tx, locked, next, { base: readHead, note: input.note, actor: opts.actor, extra })
      : await tx.agent.update({ where: { id: locked.id }, data: extra });
    const fields = Object.keys(input).filter((k) => !["base_version", "publish", "note"].includes(k));
    if (fields.length) {
      await audit({
        tx,
        organizationId,
        actor: opts.actor,
        action: "agent.updated",
        targetType: "agent",
        targetId: locked.id,
        data: { fields, draft_version: saved.draftVersion ?? null, base_version: readHead },
      });
    }
    return saved;
  });
  evictAgent(organizationId, agent.id);
  if (next) await auditSecretUse(organizationId, opts.actor, agent.id, secrets);
  if (input.publish) {
    return publishDraft({
      organizationId,
      agentId: agent.id,
      input: { rollout_percent: 100, note: input.note, version: agent.draftVersion ?? undefined },
      actor: opts.actor,
    }) as Promise<AgentAnswer>;
  }
  return agentRecord(agent);
}

const touchesConfig = (input: UpdateAgentBody) =>
  input.runtime !== undefined || input.workflow !== undefined || input.callback_url !== undefined;

/** Guard rules must be the organization's error-rate or latency rules, of every agent or this one. */
async function checkGuardRules(agent: Agent, ids: string[]) {
  if (!ids.length) return;
  const db = await prisma();
  const rules = await db.alertRule.findMany({ where: { id: { in: ids }, organizationId: agent.organizationId } });
  for (const [i, id] of ids.entries()) {
    const rule = rules.find((r) => r.id === id);
    const problem = !rule
      ? "names no alert rule of this organization"
      : rule.kind !== "error_rate" && rule.kind !== "latency_p95"
        ? `names a ${rule.kind} rule: a guard is an error_rate or latency_p95 rule`
        : rule.agentId && rule.agentId !== agent.id
          ? "names a rule of another agent"
          : null;
    if (problem) throw fieldError(`guard_rule_ids.${i}`, problem);
  }
}

const OPEN_SESSIONS_CAP = 10_000;

/** "version 6", "versions 5 and 6": the versions a group of sessions or runs keeps. */
function keptVersions(versions: (number | null)[], published: number): string {
  const list = [...new Set(versions.map((v) => v ?? published))].sort((a, b) => a - b);
  if (list.length <= 1) return `version ${list[0] ?? published}`;
  return `versions ${list.slice(0, -1).join(", ")} and ${list.at(-1)}`;
}

/**
 * What publishing `draft` changes for live traffic: the changes, and the open sessions (active in
 * the last 24 hours) and unfinished runs, which keep the version they have.
 */
async function previewPublish(agent: Agent, draft: AgentVersion, published: AgentVersion, percent: number) {
  const db = await prisma();
  const since = new Date(Date.now() - 86_400_000);
  const held =
    agent.kind === "conversational"
      ? await db.session.findMany({
          where: { agentId: agent.id, environment: "production", status: "active", lastMessageAt: { gte: since } },
          select: { agentVersion: true },
          take: OPEN_SESSIONS_CAP,
        })
      : await db.run.findMany({
          where: { agentId: agent.id, status: { in: ["pending", "running", "paused", "needs_review"] } },
          select: { agentVersion: true },
          take: OPEN_SESSIONS_CAP,
        });
  const n = held.length;
  const count = n >= OPEN_SESSIONS_CAP ? `${OPEN_SESSIONS_CAP}+` : String(n);
  const share = percent === 100 ? "" : ` (${percent} % of them: a canary)`;
  const kept = keptVersions(
    held.map((h) => h.agentVersion),
    published.version,
  );
  const summary =
    agent.kind === "conversational"
      ? `Replies in new sessions${share} will use version ${draft.version}; ${count} open session${n === 1 ? " keeps" : "s keep"} ${n ? kept : "their version"}.`
      : `New runs${share} will use version ${draft.version}; ${count} run${n === 1 ? " in progress keeps" : "s in progress keep"} ${n ? kept : "their version"}.`;
  return {
    agent_id: agent.id,
    dry_run: true as const,
    version: draft.version,
    published_version: published.version,
    rollout_percent: percent,
    changes: diffConfigs(configOf(published), configOf(draft)),
    open_sessions: agent.kind === "conversational" ? n : 0,
    runs_in_progress: agent.kind === "workflow" ? n : 0,
    summary,
  };
}

/**
 * Publishes the draft: at 100 % it serves every new session and run at once; below, it starts a
 * canary rollout of that share (lib/serving.ts chooses by a stable hash). A dry run answers what
 * would change. Publishing with no draft, or a draft equal to what serves, is 409 nothing_to_publish.
 */
export async function publishDraft(opts: {
  organizationId: string;
  agentId: string;
  input: PublishBody;
  actor: Actor;
}): Promise<AgentAnswer | z.output<typeof PublishPreview>> {
  const { input, organizationId } = opts;
  const agent = await loadAgentForKey(organizationId, opts.agentId);
  await ensureVersionRows(agent);
  const rollout = rolloutOf(agent);
  if (rollout) throw rolloutInProgress(rollout);
  if (agent.draftVersion === null) {
    throw new ApiError(
      "nothing_to_publish",
      `There is no draft to publish: version ${agent.publishedVersion} is live.`,
      {
        published_version: agent.publishedVersion,
      },
    );
  }
  if (input.version !== undefined && input.version !== agent.draftVersion) throw draftConflict(agent, input.version);
  const db = await prisma();
  const [draft, published] = await Promise.all([
    findVersion(db, agent, agent.draftVersion),
    findVersion(db, agent, agent.publishedVersion),
  ]);
  if (sameConfig(configOf(draft), configOf(published))) {
    throw new ApiError(
      "nothing_to_publish",
      `The draft (version ${draft.version}) is the same as the published version ${published.version}.`,
      { draft_version: draft.version, published_version: published.version },
    );
  }
  const secrets = await assertServable(agent, configOf(draft));
  const guards = input.guard_rule_ids ?? [];
  await checkGuardRules(agent, guards);
  const percent = input.rollout_percent ?? 100;
  if (input.evaluation_id) await checkEvaluation(agent, draft.version, input.evaluation_id);
  if (input.dry_run) return previewPublish(agent, draft, published, percent);
  const note = input.evaluation_id
    ? `${input.note ?? draft.note ?? "Published"} (evaluation ${input.evaluation_id})`
    : input.note;
  const now = new Date();
  const saved = await db.$transaction(async (tx) => {
    const locked = await lockAgent(tx, organizationId, agent.id);
    if (rolloutOf(locked)) throw rolloutInProgress(rolloutOf(locked)!);
    if (locked.draftVersion !== draft.version || locked.publishedVersion !== published.version) {
      throw draftConflict(locked, draft.version);
    }
    await tx.agentVersion.update({
      where: { agentId_version: { agentId: agent.id, version: draft.version } },
      data: { publishedAt: now, ...(note ? { note } : {}) },
    });
    const next: Rollout = {
      version: draft.version,
      percent,
      from_version: published.version,
      guard_rule_ids: guards,
      started_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    const updated = await tx.agent.update({
      where: { id: agent.id },
      data:
        percent === 100
          ? { ...serve(draft), previousVersion: published.version, draftVersion: null }
          : { draftVersion: null, rollout: next as unknown as Prisma.InputJsonValue },
    });
    await audit({
      tx,
      organizationId,
      actor: opts.actor,
      action: "agent.published",
      targetType: "agent",
      targetId: agent.id,
      data: {
        version: draft.version,
        rollout_percent: percent,
        note: note ?? draft.note ?? null,
        guard_rule_ids: guards,
        ...(input.evaluation_id ? { evaluation_id: input.evaluation_id } : {}),
        before: servingState(locked),
        after: servingState(updated),
      },
    });
    return updated;
  });
  evictAgent(organizationId, agent.id);
  await auditSecretUse(organizationId, opts.actor, agent.id, secrets);
  return agentRecord(saved);
}

/** A publish that names an evaluation: one of this agent's, of this very draft. */
async function checkEvaluation(agent: Agent, draftVersion: number, evaluationId: string) {
  const db = await prisma();
  const e = await db.evaluation.findFirst({
    where: { id: evaluationId, organizationId: agent.organizationId, agentId: agent.id },
    select: { candidateVersion: true },
  });
  const refuse = (message: string) => fieldError("evaluation_id", message);
  if (!e) throw refuse("is not an evaluation of this agent");
  if (e.candidateVersion !== draftVersion) {
    throw refuse(`evaluated version ${e.candidateVersion}, not the draft (version ${draftVersion})`);
  }
}

/** The agent row's columns that make `v` the published version. */
const serve = (v: AgentVersion) => ({
  publishedVersion: v.version,
  runtime: v.runtime as Prisma.InputJsonValue,
  workflow: (v.workflow ?? null) as Prisma.InputJsonValue,
  callbackUrl: v.callbackUrl,
  rollout: null as unknown as Prisma.InputJsonValue,
});

const rolloutInProgress = (r: Rollout) =>
  new ApiError(
    "rollout_in_progress",
    `Version ${r.version} is rolling out to ${r.percent} %: complete it (rollout to 100) or roll it back first.`,
    { rollout_version: r.version, percent: r.percent },
  );

/** POST .../rollout: the canary's new share; 100 completes it (the new version then serves all). */
export async function changeRollout(opts: {
  organizationId: string;
  agentId: string;
  percent: number;
  actor: Actor;
}): Promise<AgentAnswer> {
  const db = await prisma();
  const saved = await db.$transaction(async (tx) => {
    const locked = await lockAgent(tx, opts.organizationId, opts.agentId);
    const rollout = rolloutOf(locked);
    if (!rollout) {
      throw new ApiError("no_rollout", "No rollout is in progress: publish a draft with a rollout_percent below 100.", {
        published_version: locked.publishedVersion,
      });
    }
    let updated: Agent;
    if (opts.percent === 100) {
      const v = await findVersion(tx, locked, rollout.version);
      updated = await tx.agent.update({
        where: { id: locked.id },
        data: { ...serve(v), previousVersion: rollout.from_version },
      });
    } else {
      const next: Rollout = { ...rollout, percent: opts.percent, updated_at: new Date().toISOString() };
      updated = await tx.agent.update({
        where: { id: locked.id },
        data: { rollout: next as unknown as Prisma.InputJsonValue },
      });
    }
    await audit({
      tx,
      organizationId: opts.organizationId,
      actor: opts.actor,
      action: "agent.rollout_changed",
      targetType: "agent",
      targetId: locked.id,
      data: {
        version: rollout.version,
        percent: opts.percent,
        before: servingState(locked),
        after: servingState(updated),
      },
    });
    return updated;
  });
  evictAgent(opts.organizationId, saved.id);
  return agentRecord(saved);
}

/**
 * POST .../rollback: ends a rollout in progress (its version stops serving), or else makes the
 * version that served before the published one live again, at once, at 100 %. Twice in a row
 * returns to where it started. `guard` (the rollout guard, lib/alerts/guards.ts) rolls back only the
 * rollout it judged, and answers null when that one is over already.
 */
export async function rollback(opts: {
  organizationId: string;
  agentId: string;
  actor: Actor;
  note?: string;
  guard?: {
    rolloutVersion: number;
    reason: Prisma.InputJsonObject;
    /** Written in the rollback's transaction (the guard's alert event and its delivery): both or neither. */
    alsoIn?: (tx: Tx, rolledBackTo: number) => Promise<void>;
  };
}): Promise<AgentAnswer | null> {
  const db = await prisma();
  const now = new Date();
  const saved = await db.$transaction(async (tx) => {
    const locked = await lockAgent(tx, opts.organizationId, opts.agentId);
    const rollout = rolloutOf(locked);
    if (opts.guard && rollout?.version !== opts.guard.rolloutVersion) return null;
    let updated: Agent;
    let from: number;
    if (rollout) {
      from = rollout.version;
      updated = await tx.agent.update({
        where: { id: locked.id },
        data: { rollout: null as unknown as Prisma.InputJsonValue },
      });
    } else {
      if (locked.previousVersion === null) {
        throw new ApiError(
          "nothing_to_roll_back",
          `Nothing served before version ${locked.publishedVersion}: there is nothing to roll back to.`,
          { published_version: locked.publishedVersion },
        );
      }
      from = locked.publishedVersion;
      const target = await findVersion(tx, locked, locked.previousVersion);
      updated = await tx.agent.update({
        where: { id: locked.id },
        data: { ...serve(target), previousVersion: locked.publishedVersion },
      });
    }
    await tx.agentVersion.update({
      where: { agentId_version: { agentId: locked.id, version: from } },
      data: { rolledBackAt: now },
    });
    await audit({
      tx,
      organizationId: opts.organizationId,
      actor: opts.actor,
      action: "agent.rolled_back",
      targetType: "agent",
      targetId: locked.id,
      data: {
        from_version: from,
        to_version: updated.publishedVersion,
        rollout: !!rollout,
        automatic: !!opts.guard,
        ...(opts.guard ? { guard: opts.guard.reason } : {}),
        note: opts.note ?? null,
        before: servingState(locked),
        after: servingState(updated),
      },
    });
    await opts.guard?.alsoIn?.(tx, updated.publishedVersion);
    return updated;
  });
  if (!saved) return null;
  evictAgent(opts.organizationId, saved.id);
  return agentRecord(saved);
}

/**
 * POST .../versions/{version}/restore: the version's configuration, exactly as stored (never as an
 * answer showed it, redacted), becomes a new draft; publishing it is then a publish like any other.
 */
export async function restoreVersion(opts: {
  organizationId: string;
  agentId: string;
  version: number;
  input: z.output<typeof RestoreBody>;
  ifMatch?: string | null;
  actor: Actor;
}): Promise<AgentAnswer> {
  const { agent, row } = await agentAndVersion(opts.organizationId, opts.agentId, opts.version);
  if (row.version === agent.draftVersion) {
    throw new ApiError("version_is_draft", `Version ${row.version} is the draft itself: edit or publish it instead.`, {
      version: row.version,
    });
  }
  const base = writePrecondition(opts.input.base_version, opts.ifMatch);
  checkBase(agent, base);
  const db = await prisma();
  const saved = await db.$transaction(async (tx) => {
    const locked = await lockAgent(tx, opts.organizationId, agent.id);
    if (head(locked) !== head(agent)) throw draftConflict(locked, base === "any" ? head(agent) : (base ?? head(agent)));
    const updated = await writeDraft(tx, locked, configOf(row), {
      base: row.version,
      note: opts.input.note ?? `Restored from version ${row.version}`,
      actor: opts.actor,
    });
    await audit({
      tx,
      organizationId: opts.organizationId,
      actor: opts.actor,
      action: "agent.restored",
      targetType: "agent",
      targetId: locked.id,
      data: {
        version: row.version,
        draft_version: updated.draftVersion,
        before: servingState(locked),
        after: servingState(updated),
      },
    });
    return updated;
  });
  evictAgent(opts.organizationId, saved.id);
  return agentRecord(saved);
}

/** DELETE .../draft: the agent has no draft any more (the version stays, superseded). Idempotent. */
export async function discardDraft(opts: {
  organizationId: string;
  agentId: string;
  ifMatch?: string | null;
  actor: Actor;
}): Promise<AgentAnswer> {
  const agent = await loadAgentForKey(opts.organizationId, opts.agentId);
  if (agent.draftVersion === null) return agentRecord(agent);
  const base = writePrecondition(undefined, opts.ifMatch);
  if (base !== undefined) checkBase(agent, base);
  const db = await prisma();
  const saved = await db.$transaction(async (tx) => {
    const locked = await lockAgent(tx, opts.organizationId, agent.id);
    if (locked.draftVersion === null) return locked;
    if (base !== undefined) checkBase(locked, base);
    const updated = await tx.agent.update({ where: { id: locked.id }, data: { draftVersion: null } });
    await audit({
      tx,
      organizationId: opts.organizationId,
      actor: opts.actor,
      action: "agent.draft_discarded",
      targetType: "agent",
      targetId: locked.id,
      data: { version: locked.draftVersion, before: servingState(locked), after: servingState(updated) },
    });
    return updated;
  });
  evictAgent(opts.organizationId, saved.id);
  return agentRecord(saved);
}

/**
 * The rollout in progress and both versions' figures since it started (traffic, errors, reply
 * latency, tokens, cost: lib/usage/versions.ts); no figures when no rollout is on.
 */
export async function rolloutReport(opts: {
  organizationId: string;
  agentId: string;
}): Promise<z.output<typeof RolloutReport>> {
  const agent = await loadAgentForKey(opts.organizationId, opts.agentId);
  const rollout = rolloutOf(agent);
  if (!rollout) return { agent_id: agent.id, rollout: null, since: null, versions: [] };
  const since = new Date(rollout.started_at);
  const figures = await versionFigures(agent.id, [rollout.version, rollout.from_version], since);
  return {
    agent_id: agent.id,
    rollout,
    since: rollout.started_at,
    versions: figures.map((f) => ({
      ...f,
      role: f.version === rollout.version ? ("canary" as const) : ("published" as const),
      traffic_percent: f.version === rollout.version ? rollout.percent : 100 - rollout.percent,
    })),
  };
}
