// The `evaluation` queue job (docs/api.md, Evaluations): replays an evaluation's cases a batch at a
// time. Each case is claimed under a lease (renewed while it runs) and its result written only by
// the claim that ran it, so two workers never run the same case at once and a finished case is
// never run again; a case whose worker died is claimed again once its lease lapses. The job yields
// after a batch (the queue's fair share puts other organizations' evaluations in between), hands
// the evaluation over when its worker stops, and stops at the budget or a cancel.
import { isDeepStrictEqual } from "node:util";
import { randomUUID } from "node:crypto";
import { prisma } from "../db";
import { env } from "../env";
import { expressionEvaluator, type Evaluator } from "../expressions";
import type { Agent, Evaluation, EvaluationCase } from "../generated/prisma/client";
import { Prisma as P } from "../generated/prisma/client";
import { log } from "../log";
import { enqueue, liveJobExists, queueRetryLimit, type JobHandler, type JobInfo } from "../queue";
import { agentAt, type AgentAtVersion } from "../serving";
import { recordUsage } from "../usage/recorder";
import { runChecks } from "./checks";
import {
  readRun,
  readSession,
  recordedRunSide,
  recordedSessionSide,
  replayRun,
  replaySession,
  sessionInput,
  step,
} from "./replay";
import { Check, EvaluationSource, type CaseSide } from "./schemas";
import { isFinished, skipPending } from "./service";

/** A claim lasts this long unless renewed (every third of it while the case runs). */
const LEASE_MS = 30_000;
/** How often a job with nothing to claim looks again while another worker holds the last cases. */
const HELD_POLL_MS = 1_000;
/** Cases a job replays before it yields its slot to the queue (other organizations' evaluations). */
const CASES_PER_JOB = 50;
/** How often a running job looks for a cancel. */
const WATCH_MS = 500;

type Budget = { max_cost_usd?: number; max_tokens?: number };

/** Claims up to `n` cases to replay: pending ones, or running ones whose lease lapsed (their worker died). */
async function claim(evaluationId: string, n: number, token: string): Promise<EvaluationCase[]> {
  const db = await prisma();
  return db.$queryRaw<EvaluationCase[]>(P.sql`
    UPDATE evaluation_cases SET status = 'running', claim_token = ${token},
      claimed_until = (clock_timestamp() AT TIME ZONE 'UTC') + ${`${LEASE_MS} milliseconds`}::interval
    WHERE id IN (
      SELECT id FROM evaluation_cases
      WHERE evaluation_id = ${evaluationId}
        AND (status = 'pending' OR (status = 'running' AND claimed_until < (clock_timestamp() AT TIME ZONE 'UTC')))
      ORDER BY position LIMIT ${n}
      FOR UPDATE SKIP LOCKED)
    RETURNING id, evaluation_id AS "evaluationId", organization_id AS "organizationId", position,
      source_type AS "sourceType", source_id AS "sourceId", status`);
}

/** What has been spent on the evaluation's cases so far. */
async function spent(evaluationId: string): Promise<{ tokens: number; cost: number; running: number }> {
  const db = await prisma();
  const [row] = await db.$queryRaw<{ tokens: bigint; cost: number; running: bigint }[]>(P.sql`
    SELECT COALESCE(SUM(tokens), 0)::bigint AS tokens, COALESCE(SUM(cost), 0)::float8 AS cost,
      COUNT(*) FILTER (WHERE status = 'running' AND claimed_until >= (clock_timestamp() AT TIME ZONE 'UTC'))::bigint AS running
    FROM evaluation_cases WHERE evaluation_id = ${evaluationId}`);
  return { tokens: Number(row!.tokens), cost: row!.cost, running: Number(row!.running) };
}

function overBudget(budget: Budget, s: { tokens: number; cost: number }): "budget_cost" | "budget_tokens" | null {
  if (budget.max_cost_usd !== undefined && s.cost >= budget.max_cost_usd) return "budget_cost";
  if (budget.max_tokens !== undefined && s.tokens >= budget.max_tokens) return "budget_tokens";
  return null;
}

/** Ends a running evaluation (`completed`, or `stopped` with why), skipping what was not replayed. */
async function finish(
  e: Evaluation,
  status: "completed" | "stopped" | "failed",
  reason: string | null,
  error?: string,
) {
  const db = await prisma();
  await db.$transaction(async (tx) => {
    const n = await tx.evaluation.updateMany({
      where: { id: e.id, status: { in: ["queued", "running"] } },
      data: { status, stopReason: reason, finishedAt: new Date(), ...(error ? { error } : {}) },
    });
    if (n.count && reason) await skipPending(tx, e.id, reason.startsWith("budget") ? "budget" : reason);
  });
}

interface Sides {
  candidate: AgentAtVersion;
  /** null: the recorded side is the baseline. */
  baseline: AgentAtVersion | null;
}

/** Replays one case on both sides and runs its checks; the row to write. */
async function replayCase(
  e: Evaluation,
  c: EvaluationCase,
  sides: Sides,
  ctx: { signal: AbortSignal; evaluator: Evaluator; checks: Check[]; source: EvaluationSource },
) {
  const opts = { caseId: c.id, signal: ctx.signal };
  let input: unknown;
  let baseline: CaseSide;
  let candidate: CaseSide;
  if (c.sourceType === "session") {
    const s = await step(() => readSession(c.sourceId, ctx.source.turns));
    if (!s) return { skipped: "source_gone" } as const;
    input = sessionInput(s, ctx.source.turns);
    baseline = sides.baseline
      ? await replaySession(s, ctx.source.turns, sides.baseline, opts)
      : recordedSessionSide(s, ctx.source.turns);
    candidate = await replaySession(s, ctx.source.turns, sides.candidate, opts);
  } else {
    const r = await step(() => readRun(c.sourceId, e.organizationId));
    if (!r || !r.items.length) return { skipped: "source_gone" } as const;
    input = r.run.inputs;
    const runOpts = { ...opts, evaluator: ctx.evaluator, liveCalls: e.liveCalls };
    baseline = sides.baseline ? await replayRun(r, sides.baseline, runOpts) : recordedRunSide(r);
    candidate = await replayRun(r, sides.candidate, runOpts);
  }
  const checks = await runChecks(ctx.checks, { input, candidate, baseline, kind: ctx.source.kind }, ctx.evaluator);
  const outcome = candidate.error !== null ? "errored" : checks.every((k) => k.passed) ? "passed" : "failed";
  return {
    input,
    baseline,
    candidate,
    checks,
    outcome,
    changed: !isDeepStrictEqual(candidate.output, baseline.output),
    tokens: candidate.tokens + (sides.baseline ? baseline.tokens : 0),
    cost: candidate.cost_usd + (sides.baseline ? baseline.cost_usd : 0),
  } as const;
}

/** Writes a case's result, if its claim is still this job's (else another worker has it: nothing is written). */
async function store(
  c: EvaluationCase,
  token: string,
  result: Awaited<ReturnType<typeof replayCase>> | { skipped: string },
) {
  const db = await prisma();
  const common = { status: "done", finishedAt: new Date(), claimToken: null, claimedUntil: null };
  const data =
    "skipped" in result
      ? { ...common, outcome: "skipped", skipReason: result.skipped }
      : {
          ...common,
          outcome: result.outcome,
          input: (result.input ?? null) as P.InputJsonValue,
          baseline: result.baseline as P.InputJsonValue,
          candidate: result.candidate as P.InputJsonValue,
          baselineLatencyMs: result.baseline.latency_ms,
          baselineFailed: result.baseline.error !== null,
          baselineTokens: result.baseline.tokens,
          baselineCost: result.baseline.cost_usd,
          candidateLatencyMs: result.candidate.latency_ms,
          candidateFailed: result.candidate.error !== null,
          candidateTokens: result.candidate.tokens,
          candidateCost: result.candidate.cost_usd,
          checkResults: result.checks,
          changed: result.changed,
          tokens: result.tokens,
          cost: result.cost,
        };
  const n = await db.evaluationCase.updateMany({ where: { id: c.id, status: "running", claimToken: token }, data });
  return n.count === 1;
}

/** Keeps the leases of the cases in flight. */
function renewLeases(ids: string[], token: string) {
  const timer = setInterval(() => {
    void prisma()
      .then((db) =>
        db.evaluationCase.updateMany({
          where: { id: { in: ids }, claimToken: token, status: "running" },
          data: { claimedUntil: new Date(Date.now() + LEASE_MS) },
        }),
      )
      .catch((err) => log.warn({ err: { message: (err as Error).message } }, "evaluation lease renewal failed"));
  }, LEASE_MS / 3);
  timer.unref?.();
  return () => clearInterval(timer);
}

/** Aborts the replays in flight once the evaluation is cancelled. */
function watchCancel(evaluationId: string, controller: AbortController) {
  const timer = setInterval(() => {
    void prisma()
      .then((db) => db.evaluation.findUnique({ where: { id: evaluationId }, select: { status: true } }))
      .then((row) => {
        if (!row || row.status === "cancelled") controller.abort();
      })
      .catch(() => undefined);
  }, WATCH_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}

async function sidesOf(e: Evaluation, agent: Agent): Promise<Sides> {
  return {
    candidate: await agentAt(agent, e.candidateVersion),
    baseline: e.baselineVersion === null ? null : await agentAt(agent, e.baselineVersion),
  };
}

/** One job's share of an evaluation: batches of cases until none is left, the budget, a cancel or its yield. */
export async function runEvaluation(evaluationId: string, job: Pick<JobInfo, "stopping">, evaluator?: Evaluator) {
  const db = await prisma();
  let e = await db.evaluation.findUnique({ where: { id: evaluationId } });
  if (!e || isFinished(e.status)) return;
  if (e.status === "queued") {
    await db.evaluation.updateMany({
      where: { id: e.id, status: "queued" },
      data: { status: "running", startedAt: new Date() },
    });
  }
  const agent = await db.agent.findUnique({ where: { id: e.agentId } });
  if (!agent) return finish(e, "failed", "error", "The agent is gone.");
  const sides = await sidesOf(e, agent);
  const ctx = {
    evaluator: evaluator ?? expressionEvaluator(),
    checks: Check.array().parse(e.checks),
    source: EvaluationSource.parse(e.source),
  };
  const budget = e.budget as Budget;
  const controller = new AbortController();
  const stopWatching = watchCancel(e.id, controller);
  let replayed = 0;
  try {
    for (;;) {
      e = await step(() => db.evaluation.findUnique({ where: { id: evaluationId } }));
      if (!e || isFinished(e.status)) return;
      const s = await step(() => spent(e!.id));
      const over = overBudget(budget, s);
      if (over) return await finish(e, "stopped", over);
      if (job.stopping.aborted || replayed >= CASES_PER_JOB) {
        // Hand over (the worker stops) or yield (others' evaluations first): another job continues.
        await enqueue("evaluation", { evaluationId: e.id, organizationId: e.organizationId });
        return;
      }
      const token = randomUUID();
      const batch = await step(() => claim(e!.id, env().EVALUATION_CONCURRENCY, token));
      if (!batch.length) {
        if (s.running === 0) return await finish(e, "completed", null);
        // The last cases are held by another worker: it finishes them, or it died and their leases
        // lapse; either way this job looks again (the evaluation ends once none is held).
        await new Promise((r) => setTimeout(r, HELD_POLL_MS));
        continue;
      }
      const stopRenewing = renewLeases(
        batch.map((c) => c.id),
        token,
      );
      try {
        await Promise.all(
          batch.map(async (c) => {
            const result = await replayCase(e!, c, sides, { ...ctx, signal: controller.signal });
            // A cancel dropped the case mid-way: what it got so far is not a result; the case is skipped.
            const outcome = controller.signal.aborted ? { skipped: "cancelled" } : result;
            const stored = await step(() => store(c, token, outcome));
            // Evaluation usage, counted apart from production's (the usage API's evaluation_* figures).
            if (stored && !("skipped" in outcome)) {
              recordUsage({
                organizationId: e!.organizationId,
                agentId: e!.agentId,
                evaluationCases: 1,
                evaluationTokens: outcome.tokens,
                evaluationCost: outcome.cost,
              });
            }
          }),
        );
      } finally {
        stopRenewing();
      }
      replayed += batch.length;
      await step(() => db.evaluation.update({ where: { id: e!.id }, data: { updatedAt: new Date() } }));
    }
  } finally {
    stopWatching();
  }
}

export const evaluationJob: JobHandler<"evaluation"> = async (data, job) => {
  try {
    await runEvaluation(data.evaluationId, job);
  } catch (err) {
    log.warn({ err: { message: (err as Error).message }, evaluation_id: data.evaluationId }, "evaluation pass failed");
    if (job.retryCount < queueRetryLimit()) throw err;
    const db = await prisma();
    const e = await db.evaluation.findUnique({ where: { id: data.evaluationId } });
    if (e) await finish(e, "failed", "error", "The evaluation stopped after repeated internal errors.");
  }
};

/**
 * Evaluations queued or running with no job that will run them (the job's last attempt died with its
 * process), unchanged for `graceMs`: each gets a new job, which continues from its cases (a periodic
 * sweep of the worker, lib/worker/periodic.ts). Returns their ids.
 */
export async function resumeOrphanedEvaluations(opts: { graceMs?: number } = {}): Promise<string[]> {
  const graceMs = opts.graceMs ?? env().QUEUE_HEARTBEAT_SECONDS * 1000;
  const before = new Date(Date.now() - graceMs);
  const live = liveJobExists("evaluation", "evaluationId", P.sql`e.id`);
  const db = await prisma();
  const rows = await db.$queryRaw<{ id: string; organization_id: string }[]>(P.sql`
    SELECT e.id, e.organization_id FROM evaluations e
    WHERE e.status IN ('queued', 'running') AND e.updated_at < ${before}::timestamp(3) AND NOT ${live}
    ORDER BY e.updated_at LIMIT 20`);
  for (const r of rows) {
    await enqueue("evaluation", { evaluationId: r.id, organizationId: r.organization_id });
    await db.evaluation.update({ where: { id: r.id }, data: { updatedAt: new Date() } });
    log.warn({ evaluation_id: r.id }, "evaluation resumed: its job had died with its process");
  }
  return rows.map((r) => r.id);
}
