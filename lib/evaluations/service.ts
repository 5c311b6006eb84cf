// Evaluations (docs/api.md, Evaluations): an admin replays a slice of an agent's real sessions or
// runs against a candidate version, side by side with a baseline, before publishing it. This module
// takes the request (its dry run, the frozen selection of cases, its job), answers the records and
// takes a person's verdicts; ./job.ts replays the cases.
import { audit, type Actor } from "../audit";
import { prisma } from "../db";
import { env } from "../env";
import { ApiError } from "../errors";
import type { Agent, Evaluation, EvaluationCase } from "../generated/prisma/client";
import { Prisma as P } from "../generated/prisma/client";
import { newId } from "../ids";
import { afterCursor, afterPosition, instantRange, pageOf } from "../pagination";
import { enqueue, transactionWithJobs } from "../queue";
import { orgRunsWhere } from "../runs/service";
import { RuntimeConfig } from "../runtime/schema";
import { loadAgentForKey } from "../agents/service";
import { assertNotArchived } from "../archived";
import { OrgSessionsFilters } from "../conversations/schemas";
import { OrgRunsFilters } from "../runs/schemas";
import { parseWith } from "../validate";
import { checkViewFilters } from "../views/schemas";
import { StoredWorkflowDefinition } from "../workflow/schema";
import { compileChecks } from "./checks";
import { diffOf } from "./diff";
import {
  Check,
  EvaluationSource,
  FINISHED_STATUSES,
  RUN_CASE_ITEMS,
  SESSION_CASE_TURNS,
  type CaseSide,
  type CheckResult,
  type CreateEvaluationBody,
  type EvaluationCaseRecord,
  type EvaluationRecord,
  type EvaluationStatus,
} from "./schemas";
import type { z } from "zod";
import type { EvaluationDryRun, EvaluationEstimate } from "./schemas";

/** Random samples are drawn from this many of the newest matching sessions or runs. */
const RANDOM_POOL = 10_000;

const notFound = () => new ApiError("evaluation_not_found", "No evaluation with this id for this agent.");

const versionError = (field: "candidate" | "baseline", message: string) =>
  new ApiError("invalid_agent_version", `Invalid body: ${field} ${message}`, { fields: [{ field, message }] });

/** A version number of `agent` that exists (any state). */
async function existingVersion(agent: Agent, field: "candidate" | "baseline", version: number): Promise<number> {
  if (version === agent.publishedVersion) return version;
  const db = await prisma();
  const row = await db.agentVersion.findUnique({
    where: { agentId_version: { agentId: agent.id, version } },
    select: { version: true },
  });
  if (!row) throw versionError(field, `is not a version of this agent (its versions go up to ${agent.latestVersion})`);
  return version;
}

async function resolveVersions(agent: Agent, body: CreateEvaluationBody) {
  let candidate: number;
  if (body.candidate === "draft") {
    if (agent.draftVersion === null)
      throw versionError("candidate", "is draft, but the agent has no draft: edit it first, or name a version");
    candidate = agent.draftVersion;
  } else candidate = await existingVersion(agent, "candidate", body.candidate);
  const baseline = body.baseline === "recorded" ? null : await existingVersion(agent, "baseline", body.baseline);
  return { candidate, candidateDraft: body.candidate === "draft", baseline };
}

/** The source's filters: a saved view's (the member's own or a shared one) under those given. */
async function sourceFilters(
  organizationId: string,
  agent: Agent,
  source: EvaluationSource,
  actor: Actor,
): Promise<Record<string, string>> {
  let filters: Record<string, string> = {};
  if (source.view_id) {
    const db = await prisma();
    const view = await db.savedView.findFirst({
      where: {
        id: source.view_id,
        organizationId,
        list: source.kind,
        OR: [{ shared: true }, { userId: actor.id ?? "" }],
      },
    });
    if (!view) {
      throw new ApiError(
        "invalid_request",
        `Invalid body: source.view_id is not a saved view of the ${source.kind} list you can see`,
        {
          fields: [{ field: "source.view_id", message: `is not a saved view of the ${source.kind} list you can see` }],
        },
      );
    }
    filters = { ...(view.filters as Record<string, string>) };
  }
  filters = { ...filters, ...(source.filters ?? {}) };
  if (filters.agent_id !== undefined && filters.agent_id !== agent.id) {
    throw new ApiError("invalid_request", "Invalid body: source.filters.agent_id names another agent", {
      fields: [{ field: "source.filters.agent_id", message: "names another agent than the one evaluated" }],
    });
  }
  try {
    checkViewFilters(source.kind, filters);
  } catch (e) {
    // checkViewFilters names `view.filters.x`: say where the caller wrote it.
    if (e instanceof ApiError && Array.isArray(e.details?.fields)) {
      const fields = (e.details.fields as { field: string; message: string }[]).map((f) => ({
        ...f,
        field: `source.${f.field}`,
      }));
      throw new ApiError("invalid_request", `Invalid body: ${fields[0]!.field} ${fields[0]!.message}`, { fields });
    }
    throw e;
  }
  return filters;
}

/** The ids of the sessions or runs the source selects, in replay order. */
async function selectSources(
  organizationId: string,
  agent: Agent,
  source: EvaluationSource,
  filters: Record<string, string>,
) {
  const db = await prisma();
  const take = source.sample === "latest" ? source.limit : RANDOM_POOL;
  let ids: string[];
  if (source.kind === "sessions") {
    const f = parseWith(OrgSessionsFilters, filters, "body");
    const rows = await db.session.findMany({
      where: {
        AND: [
          {
            organizationId,
            agentId: agent.id,
            messageCount: { gt: 0 },
            ...(f.status ? { status: f.status } : {}),
            ...(f.user_id ? { userId: f.user_id } : {}),
            ...(f.environment !== "all" ? { environment: f.environment } : {}),
            ...(f.agent_version ? { agentVersion: f.agent_version } : {}),
          },
          f.since ? { lastMessageAt: { gt: f.since } } : {},
          instantRange("lastMessageAt", f),
        ],
      },
      orderBy: [{ lastMessageAt: "desc" }, { id: "desc" }],
      take,
      select: { id: true },
    });
    ids = rows.map((r) => r.id);
  } else {
    const f = parseWith(OrgRunsFilters, filters, "body");
    const where = orgRunsWhere(organizationId, {
      agent_id: agent.id,
      status: f.status,
      user_id: f.user_id,
      has_error: f.has_error,
      agent_version: f.agent_version,
      from: f.from,
      to: f.to,
    });
    const rows = await db.run.findMany({
      where: { AND: [where, { itemsTotal: { gt: 0 } }] },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take,
      select: { id: true },
    });
    ids = rows.map((r) => r.id);
  }
  if (source.sample === "random") ids = sample(ids, source.limit);
  return ids;
}

/** `n` of `ids` drawn uniformly (Fisher-Yates on a copy), in their original order. */
function sample(ids: string[], n: number): string[] {
  if (ids.length <= n) return ids;
  const order = ids.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order
    .slice(0, n)
    .sort((a, b) => a - b)
    .map((i) => ids[i]!);
}

/** Dollars of `prompt` and `completion` tokens at a runtime's configured prices (0 without). */
function priceOf(runtime: unknown, prompt: number, completion: number): number {
  const parsed = RuntimeConfig.safeParse(runtime);
  if (!parsed.success || parsed.data.type !== "openai" || !parsed.data.prices) return 0;
  const p = parsed.data.prices;
  return (prompt * p.prompt_per_million + completion * p.completion_per_million) / 1e6;
}

async function versionConfig(agent: Agent, version: number) {
  if (version === agent.publishedVersion) return { runtime: agent.runtime, workflow: agent.workflow };
  const db = await prisma();
  const row = await db.agentVersion.findUnique({ where: { agentId_version: { agentId: agent.id, version } } });
  return { runtime: row?.runtime ?? agent.runtime, workflow: row?.workflow ?? agent.workflow };
}

const stepCount = (workflow: unknown, type: string) =>
  StoredWorkflowDefinition.safeParse(workflow).data?.steps.filter((s) => s.type === type).length ?? 0;

/**
 * The dry run's figures: cases, the model calls the replays make (candidate, and a replayed
 * baseline), the http calls sent for real, and tokens and dollars from what was recorded: the
 * replayed replies' token counts (sessions) or the llm steps' (runs), at the replaying versions' prices.
 */
async function estimate(
  agent: Agent,
  ids: string[],
  source: EvaluationSource,
  versions: { candidate: number; baseline: number | null },
  liveCalls: boolean,
): Promise<z.output<typeof EvaluationEstimate>> {
  const db = await prisma();
  const sides = [await versionConfig(agent, versions.candidate)];
  if (versions.baseline !== null) sides.push(await versionConfig(agent, versions.baseline));
  if (!ids.length) return { cases: 0, model_calls: 0, http_calls: 0, tokens: 0, cost_usd: 0 };
  if (source.kind === "sessions") {
    const [turns] = await db.$queryRaw<{ turns: bigint; prompt: bigint; completion: bigint; replies: bigint }[]>(P.sql`
      SELECT
        COALESCE(SUM(LEAST(u.n, ${source.turns === "last" ? 1 : SESSION_CASE_TURNS})), 0)::bigint AS turns,
        COALESCE((SELECT SUM(prompt_tokens) FROM messages WHERE session_id IN (${P.join(ids)}) AND role = 'assistant'), 0)::bigint AS prompt,
        COALESCE((SELECT SUM(completion_tokens) FROM messages WHERE session_id IN (${P.join(ids)}) AND role = 'assistant'), 0)::bigint AS completion,
        COALESCE((SELECT COUNT(*) FROM messages WHERE session_id IN (${P.join(ids)}) AND role = 'assistant' AND status = 'completed'), 0)::bigint AS replies
      FROM (SELECT session_id, COUNT(*) AS n FROM messages WHERE session_id IN (${P.join(ids)}) AND role = 'user' GROUP BY session_id) u`);
    const calls = Number(turns!.turns);
    const replies = Math.max(1, Number(turns!.replies));
    const prompt = Number(turns!.prompt) / replies;
    const completion = Number(turns!.completion) / replies;
    return {
      cases: ids.length,
      model_calls: calls * sides.length,
      http_calls: 0,
      tokens: Math.round(calls * (prompt + completion)) * sides.length,
      cost_usd: sides.reduce((a, s) => a + calls * priceOf(s.runtime, prompt, completion), 0),
    };
  }
  const [items] = await db.$queryRaw<{ items: bigint; tokens: bigint }[]>(P.sql`
    SELECT COUNT(*)::bigint AS items,
      COALESCE(SUM((SELECT SUM((seg->>'tokens')::bigint) FROM jsonb_array_elements(CASE WHEN jsonb_typeof(steps) = 'array' THEN steps ELSE '[]'::jsonb END) seg
        WHERE seg ? 'tokens')), 0)::bigint AS tokens
    FROM run_items WHERE run_id IN (${P.join(ids)}) AND index < ${RUN_CASE_ITEMS}`);
  const n = Number(items!.items);
  const tokens = Number(items!.tokens);
  return {
    cases: ids.length,
    model_calls: sides.reduce((a, s) => a + n * stepCount(s.workflow, "llm"), 0),
    http_calls: liveCalls ? sides.reduce((a, s) => a + n * stepCount(s.workflow, "http"), 0) : 0,
    tokens: tokens * sides.length,
    // Recorded llm tokens are a total: priced half as prompt, half as completion.
    cost_usd: sides.reduce((a, s) => a + priceOf(s.runtime, tokens / 2, tokens / 2), 0),
  };
}

/** Refuses another evaluation while the organization has EVALUATIONS_PER_ORG queued or running. */
async function assertCapacity(tx: P.TransactionClient, organizationId: string) {
  // The organization's row lock: two requests cannot both see room for one more.
  await tx.$queryRaw(P.sql`SELECT id FROM organizations WHERE id = ${organizationId} FOR UPDATE`);
  const open = await tx.evaluation.count({ where: { organizationId, status: { in: ["queued", "running"] } } });
  if (open >= env().EVALUATIONS_PER_ORG) {
    throw new ApiError(
      "too_many_evaluations",
      `The organization already has ${open} evaluations queued or running; wait for one to finish or cancel one.`,
      { retry_after_seconds: 30, limit: env().EVALUATIONS_PER_ORG },
    );
  }
}

/** Makes an evaluation (or answers its dry run): its frozen selection of cases and its job. */
export async function createEvaluation(opts: {
  organizationId: string;
  agentId: string;
  actor: Actor;
  body: CreateEvaluationBody;
}): Promise<{ dryRun: true; answer: z.output<typeof EvaluationDryRun> } | { dryRun: false; answer: EvaluationRecord }> {
  const { body } = opts;
  const agent = await loadAgentForKey(opts.organizationId, opts.agentId);
  assertNotArchived(agent);
  const wanted = agent.kind === "workflow" ? "runs" : "sessions";
  if (body.source.kind !== wanted) {
    throw new ApiError("invalid_request", `Invalid body: source.kind must be ${wanted} for a ${agent.kind} agent`, {
      fields: [{ field: "source.kind", message: `must be ${wanted} for a ${agent.kind} agent` }],
    });
  }
  const versions = await resolveVersions(agent, body);
  await compileChecks(body.checks);
  const filters = await sourceFilters(opts.organizationId, agent, body.source, opts.actor);
  const ids = await selectSources(opts.organizationId, agent, body.source, filters);
  if (!ids.length) {
    throw new ApiError(
      "empty_source",
      `The source selects no ${body.source.kind} of this agent with anything to replay.`,
      {
        fields: [{ field: "source", message: "selects nothing" }],
      },
    );
  }
  const figures = await estimate(agent, ids, body.source, versions, body.live_calls);
  const candidate = { version: versions.candidate, draft: versions.candidateDraft };
  const baseline = { kind: versions.baseline === null ? "recorded" : "version", version: versions.baseline } as const;
  if (body.dry_run) return { dryRun: true, answer: { dry_run: true, candidate, baseline, estimate: figures } };

  const id = newId("eval");
  const source = { ...body.source, filters };
  const row = await transactionWithJobs(async (tx) => {
    await assertCapacity(tx, opts.organizationId);
    const created = await tx.evaluation.create({
      data: {
        id,
        organizationId: opts.organizationId,
        agentId: agent.id,
        candidateVersion: versions.candidate,
        candidateDraft: versions.candidateDraft,
        baselineVersion: versions.baseline,
        sourceKind: body.source.kind,
        source,
        checks: body.checks as P.InputJsonValue,
        budget: body.budget,
        liveCalls: body.live_calls,
        casesTotal: ids.length,
        estimate: figures,
        actorType: opts.actor.type,
        actorId: opts.actor.id ?? null,
        actorLabel: opts.actor.label ?? null,
      },
    });
    await tx.evaluationCase.createMany({
      data: ids.map((sourceId, position) => ({
        id: newId("evc"),
        evaluationId: id,
        organizationId: opts.organizationId,
        position,
        sourceType: body.source.kind === "sessions" ? "session" : "run",
        sourceId,
        input: {},
      })),
    });
    await audit({
      organizationId: opts.organizationId,
      actor: opts.actor,
      action: "evaluation.created",
      targetType: "agent",
      targetId: agent.id,
      data: {
        evaluation_id: id,
        candidate_version: versions.candidate,
        baseline_version: versions.baseline,
        cases: ids.length,
        live_calls: body.live_calls,
        budget: body.budget,
      },
      tx,
    });
    await enqueue("evaluation", { evaluationId: id, organizationId: opts.organizationId }, { tx });
    return created;
  });
  return { dryRun: false, answer: await evaluationRecord(row) };
}

/** p-th percentile (nearest rank) of `values`, or null. */
function percentile(values: number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

type SideRow = { latency: number | null; errored: boolean; tokens: number | null; cost: number | null };

function sideStats(rows: SideRow[]) {
  const latencies = rows.map((r) => r.latency).filter((l): l is number => l !== null);
  return {
    cases: rows.length,
    error_rate: rows.length ? rows.filter((r) => r.errored).length / rows.length : 0,
    latency_ms: { p50: percentile(latencies, 50), p95: percentile(latencies, 95) },
    tokens: rows.reduce((a, r) => a + (r.tokens ?? 0), 0),
    cost_usd: rows.reduce((a, r) => a + (r.cost ?? 0), 0),
  };
}

/** The evaluation's record: its request, progress, counts and each side's figures (read from its cases). */
export async function evaluationRecord(e: Evaluation): Promise<EvaluationRecord> {
  const db = await prisma();
  const rows = await db.$queryRaw<
    {
      status: string;
      outcome: string | null;
      changed: boolean | null;
      verdict: string | null;
      tokens: number;
      cost: number;
      c_latency: number | null;
      c_error: boolean;
      c_tokens: number | null;
      c_cost: number | null;
      b_latency: number | null;
      b_error: boolean;
      b_tokens: number | null;
      b_cost: number | null;
    }[]
  >(P.sql`
    SELECT status, outcome, changed, verdict, tokens, cost,
      candidate_latency_ms AS c_latency, coalesce(candidate_failed, false) AS c_error,
      candidate_tokens AS c_tokens, candidate_cost AS c_cost,
      baseline_latency_ms AS b_latency, coalesce(baseline_failed, false) AS b_error,
      baseline_tokens AS b_tokens, baseline_cost AS b_cost
    FROM evaluation_cases WHERE evaluation_id = ${e.id}`);
  const count = (f: (r: (typeof rows)[number]) => boolean) => rows.filter(f).length;
  const replayed = rows.filter((r) => r.status === "done" && r.outcome !== "skipped");
  const source = EvaluationSource.parse(e.source);
  const budget = e.budget as { max_cost_usd?: number; max_tokens?: number };
  return {
    evaluation_id: e.id,
    agent_id: e.agentId,
    status: e.status as EvaluationStatus,
    stop_reason: e.stopReason,
    candidate: { version: e.candidateVersion, draft: e.candidateDraft },
    baseline: { kind: e.baselineVersion === null ? "recorded" : "version", version: e.baselineVersion },
    source,
    checks: Check.array().parse(e.checks),
    budget: { max_cost_usd: budget.max_cost_usd ?? null, max_tokens: budget.max_tokens ?? null },
    live_calls: e.liveCalls,
    estimate: e.estimate as EvaluationRecord["estimate"],
    progress: { total: e.casesTotal, done: count((r) => r.status === "done") },
    counts: {
      passed: count((r) => r.outcome === "passed"),
      failed: count((r) => r.outcome === "failed"),
      errored: count((r) => r.outcome === "errored"),
      skipped: count((r) => r.outcome === "skipped"),
      changed: count((r) => r.changed === true),
    },
    verdicts: {
      better: count((r) => r.verdict === "better"),
      same: count((r) => r.verdict === "same"),
      worse: count((r) => r.verdict === "worse"),
    },
    sides: {
      baseline: sideStats(
        replayed.map((r) => ({ latency: r.b_latency, errored: r.b_error, tokens: r.b_tokens, cost: r.b_cost })),
      ),
      candidate: sideStats(
        replayed.map((r) => ({ latency: r.c_latency, errored: r.c_error, tokens: r.c_tokens, cost: r.c_cost })),
      ),
    },
    spent: { tokens: rows.reduce((a, r) => a + r.tokens, 0), cost_usd: rows.reduce((a, r) => a + r.cost, 0) },
    error: e.error,
    created_by: e.actorLabel,
    created_at: e.createdAt.toISOString(),
    started_at: e.startedAt?.toISOString() ?? null,
    finished_at: e.finishedAt?.toISOString() ?? null,
  };
}

async function loadEvaluation(organizationId: string, agentId: string, evaluationId: string): Promise<Evaluation> {
  const db = await prisma();
  const row = await db.evaluation.findFirst({ where: { id: evaluationId, organizationId, agentId } });
  if (!row) throw notFound();
  return row;
}

export async function getEvaluation(opts: { organizationId: string; agentId: string; evaluationId: string }) {
  await loadAgentForKey(opts.organizationId, opts.agentId);
  return evaluationRecord(await loadEvaluation(opts.organizationId, opts.agentId, opts.evaluationId));
}

/** An agent's evaluations, newest first, a page at a time. */
export async function listEvaluations(opts: {
  organizationId: string;
  agentId: string;
  limit: number;
  cursor?: string;
}) {
  await loadAgentForKey(opts.organizationId, opts.agentId);
  const db = await prisma();
  const rows = await db.evaluation.findMany({
    where: { organizationId: opts.organizationId, agentId: opts.agentId, ...afterCursor("createdAt", opts.cursor) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: opts.limit + 1,
  });
  const page = pageOf(rows, opts.limit, (e) => e.createdAt);
  return {
    evaluations: await Promise.all(page.rows.map(evaluationRecord)),
    has_more: page.has_more,
    next_cursor: page.next_cursor,
  };
}

/** Cancels a queued or running evaluation: cases not yet replayed are skipped; one in flight is dropped. */
export async function cancelEvaluation(opts: {
  organizationId: string;
  agentId: string;
  evaluationId: string;
  actor: Actor;
}) {
  await loadAgentForKey(opts.organizationId, opts.agentId);
  const row = await loadEvaluation(opts.organizationId, opts.agentId, opts.evaluationId);
  const db = await prisma();
  const moved = await db.$transaction(async (tx) => {
    const n = await tx.evaluation.updateMany({
      where: { id: row.id, status: { in: ["queued", "running"] } },
      data: { status: "cancelled", stopReason: "cancelled", finishedAt: new Date() },
    });
    if (!n.count) return false;
    await skipPending(tx, row.id, "cancelled");
    await audit({
      organizationId: opts.organizationId,
      actor: opts.actor,
      action: "evaluation.cancelled",
      targetType: "agent",
      targetId: row.agentId,
      data: { evaluation_id: row.id },
      tx,
    });
    return true;
  });
  const now = await loadEvaluation(opts.organizationId, opts.agentId, opts.evaluationId);
  if (!moved) {
    throw new ApiError(
      "evaluation_finished",
      `The evaluation has finished (${now.status}): there is nothing to cancel.`,
      {
        status: now.status,
      },
    );
  }
  return evaluationRecord(now);
}

/** Marks the evaluation's cases not yet replayed (pending) skipped, with why. */
export async function skipPending(tx: P.TransactionClient, evaluationId: string, reason: string) {
  await tx.evaluationCase.updateMany({
    where: { evaluationId, status: "pending" },
    data: { status: "done", outcome: "skipped", skipReason: reason, finishedAt: new Date() },
  });
}

export const isFinished = (status: string) => (FINISHED_STATUSES as readonly string[]).includes(status);

export function caseRecord(c: EvaluationCase): EvaluationCaseRecord {
  const baseline = (c.baseline as CaseSide | null) ?? null;
  const candidate = (c.candidate as CaseSide | null) ?? null;
  return {
    case_id: c.id,
    position: c.position,
    source: { type: c.sourceType as "session" | "run", id: c.sourceId },
    status: c.status as EvaluationCaseRecord["status"],
    outcome: c.outcome as EvaluationCaseRecord["outcome"],
    skip_reason: c.skipReason,
    changed: c.changed,
    input: c.status === "done" && c.outcome !== "skipped" ? c.input : null,
    baseline,
    candidate,
    diff: baseline && candidate ? diffOf(baseline.output, candidate.output) : null,
    checks: (c.checkResults as CheckResult[] | null) ?? [],
    verdict: c.verdict as EvaluationCaseRecord["verdict"],
    verdict_note: c.verdictNote,
    verdict_by: c.verdictBy,
    verdict_at: c.verdictAt?.toISOString() ?? null,
    finished_at: c.finishedAt?.toISOString() ?? null,
  };
}

/** The evaluation's cases in replay order, a page at a time, by outcome and changed or not. */
export async function listCases(opts: {
  organizationId: string;
  agentId: string;
  evaluationId: string;
  limit: number;
  cursor?: string;
  outcome?: string;
  changed?: boolean;
}) {
  await loadAgentForKey(opts.organizationId, opts.agentId);
  const e = await loadEvaluation(opts.organizationId, opts.agentId, opts.evaluationId);
  const db = await prisma();
  const rows = await db.evaluationCase.findMany({
    where: {
      evaluationId: e.id,
      ...afterPosition("position", opts.cursor),
      ...(opts.outcome ? { outcome: opts.outcome } : {}),
      ...(opts.changed !== undefined ? { changed: opts.changed } : {}),
    },
    orderBy: { position: "asc" },
    take: opts.limit + 1,
  });
  const page = pageOf(rows, opts.limit, (c) => c.position);
  return { cases: page.rows.map(caseRecord), has_more: page.has_more, next_cursor: page.next_cursor };
}

async function loadCase(opts: { organizationId: string; agentId: string; evaluationId: string; caseId: string }) {
  await loadAgentForKey(opts.organizationId, opts.agentId);
  const e = await loadEvaluation(opts.organizationId, opts.agentId, opts.evaluationId);
  const db = await prisma();
  const row = await db.evaluationCase.findFirst({ where: { id: opts.caseId, evaluationId: e.id } });
  if (!row) throw new ApiError("evaluation_case_not_found", "No case with this id in the evaluation.");
  return row;
}

export async function getCase(opts: { organizationId: string; agentId: string; evaluationId: string; caseId: string }) {
  return caseRecord(await loadCase(opts));
}

/** A person's judgement of a case (admins and support alike), audited. */
export async function judgeCase(opts: {
  organizationId: string;
  agentId: string;
  evaluationId: string;
  caseId: string;
  actor: Actor;
  verdict: "better" | "same" | "worse" | null;
  note?: string;
}) {
  const row = await loadCase(opts);
  const db = await prisma();
  const updated = await db.$transaction(async (tx) => {
    const next = await tx.evaluationCase.update({
      where: { id: row.id },
      data: {
        verdict: opts.verdict,
        verdictNote: opts.verdict === null ? null : (opts.note ?? null),
        verdictBy: opts.verdict === null ? null : (opts.actor.label ?? null),
        verdictAt: opts.verdict === null ? null : new Date(),
      },
    });
    await audit({
      organizationId: opts.organizationId,
      actor: opts.actor,
      action: "evaluation.verdict",
      targetType: "agent",
      targetId: opts.agentId,
      data: { evaluation_id: opts.evaluationId, case_id: row.id, verdict: opts.verdict },
      tx,
    });
    return next;
  });
  return caseRecord(updated);
}
