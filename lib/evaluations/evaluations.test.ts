// Evaluations on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): the selection, the
// replay of sessions and runs on both sides, checks, the budget, cancel, a worker that died with
// cases in hand, isolation from everything production reads, and the refusals of bad requests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent, Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import { resetEnvCache } from "../env";
import { stopQueue } from "../queue";
import { backfillUsage } from "../usage/backfill";
import { flushUsage } from "../usage/recorder";
import { closeExpressionEvaluator } from "../expressions";
import { startFakeUpstream, type FakeUpstream } from "../../test-support/runtime";
import { openTestDatabase } from "../../test-support/db";
import { drive, startRun, workflowAgent } from "../../test-support/workflow";
import { userActor } from "../audit";
import { resumeOrphanedEvaluations, runEvaluation } from "./job";
import { closeSchemaChecker } from "./schema-check";
import { CreateEvaluationBody } from "./schemas";
import { cancelEvaluation, createEvaluation, getEvaluation, judgeCase, listCases } from "./service";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let upstream: FakeUpstream;
const actor = userActor({ userId: "usr_eval", email: "admin@example.com" });

beforeAll(async () => {
  process.env.SIGNING_SECRET ??= "unit-test-signing-secret";
  process.env.ALLOW_PRIVATE_UPSTREAMS = "true";
  process.env.EVALUATION_CONCURRENCY = "2";
  resetEnvCache();
  db = await openTestDatabase();
  upstream = await startFakeUpstream();
});
afterAll(async () => {
  await upstream.close();
  closeExpressionEvaluator();
  await closeSchemaChecker();
  await stopQueue();
  await db.dispose();
});

async function organization() {
  const orgId = newId("org");
  const projectId = newId("proj");
  await db.prisma.organization.create({ data: { id: orgId, name: orgId } });
  await db.prisma.project.create({ data: { id: projectId, organizationId: orgId, name: "default" } });
  return { orgId, projectId };
}

/** A conversational agent at version 1 with `runtime`, and a draft (version 2) with `draft` when given. */
async function conversational(runtime: object, draft?: object) {
  const { orgId, projectId } = await organization();
  const agent = await db.prisma.agent.create({
    data: {
      id: newId("agt"),
      organizationId: orgId,
      projectId,
      name: "support bot",
      kind: "conversational",
      runtime: runtime as Prisma.InputJsonValue,
      ...(draft ? { draftVersion: 2, latestVersion: 2 } : {}),
    },
  });
  const version = (v: number, r: object, publishedAt: Date | null) =>
    db.prisma.agentVersion.create({
      data: {
        agentId: agent.id,
        version: v,
        organizationId: orgId,
        runtime: r as Prisma.InputJsonValue,
        actorType: "user",
        publishedAt,
      },
    });
  await version(1, runtime, new Date());
  if (draft) await version(2, draft, null);
  return { agent, orgId, projectId };
}

/** A session with `turns` user messages, each answered (as recorded) by "recorded <n>". */
async function recordedSession(a: Agent, turns: string[], at = new Date()) {
  const sessionId = newId("sess");
  await db.prisma.session.create({
    data: {
      id: sessionId,
      organizationId: a.organizationId,
      projectId: a.projectId,
      agentId: a.id,
      messageCount: turns.length * 2,
      lastMessageAt: at,
    },
  });
  const common = { sessionId, agentId: a.id, organizationId: a.organizationId, projectId: a.projectId };
  let t = at.getTime() - turns.length * 10;
  for (const [i, content] of turns.entries()) {
    const user = await db.prisma.message.create({
      data: {
        ...common,
        id: newId("msg"),
        role: "user",
        status: "completed",
        content,
        payload: { message: content },
        createdAt: new Date(t++),
      },
    });
    await db.prisma.message.create({
      data: {
        ...common,
        id: newId("msg"),
        role: "assistant",
        status: "completed",
        content: `recorded ${i + 1}`,
        replyToId: user.id,
        promptTokens: 10,
        completionTokens: 5,
        totalTokens: 15,
        processingTimeMs: 40,
        createdAt: new Date(t++),
      },
    });
  }
  return sessionId;
}

const body = (b: Record<string, unknown>) => CreateEvaluationBody.parse(b);

async function create(a: Agent, b: Record<string, unknown>) {
  const made = await createEvaluation({ organizationId: a.organizationId, agentId: a.id, actor, body: body(b) });
  if (made.dryRun) throw new Error("expected an evaluation");
  return made.answer;
}

/** Runs the evaluation's jobs until it has finished (what the queue's workers would do). */
async function drain(a: Agent, evaluationId: string) {
  const stopping = new AbortController().signal;
  for (let i = 0; i < 100; i++) {
    await runEvaluation(evaluationId, { stopping });
    const e = await getEvaluation({ organizationId: a.organizationId, agentId: a.id, evaluationId });
    if (!["queued", "running"].includes(e.status)) return e;
  }
  throw new Error("the evaluation did not finish");
}

const cases = async (a: Agent, evaluationId: string, extra: { outcome?: string; changed?: boolean } = {}) =>
  (await listCases({ organizationId: a.organizationId, agentId: a.id, evaluationId, limit: 200, ...extra })).cases;

/** The organization's usage rollups but their evaluation figures (flushed first). */
async function productionUsage(orgId: string) {
  await flushUsage();
  const u = await db.prisma.usageHourly.aggregate({
    where: { organizationId: orgId },
    _sum: {
      triggers: true,
      repliesCompleted: true,
      repliesFailed: true,
      runsStarted: true,
      runsCompleted: true,
      runsFailed: true,
      promptTokens: true,
      completionTokens: true,
      cost: true,
      uploads: true,
    },
  });
  // No row yet sums to null: the same as 0.
  return Object.fromEntries(Object.entries(u._sum).map(([k, v]) => [k, Number(v ?? 0)]));
}

const evaluationUsage = async (orgId: string) => {
  await flushUsage();
  const u = await db.prisma.usageHourly.aggregate({
    where: { organizationId: orgId },
    _sum: { evaluationCases: true, evaluationTokens: true, evaluationCost: true },
  });
  return u._sum;
};

/** Counts of everything production reads: an evaluation must leave each as it was. */
async function productionCounts(orgId: string) {
  const p = db.prisma;
  return {
    sessions: await p.session.count({ where: { organizationId: orgId } }),
    messages: await p.message.count({ where: { organizationId: orgId } }),
    runs: await p.run.count({ where: { organizationId: orgId } }),
    deliveries: await p.callbackDelivery.count({ where: { organizationId: orgId } }),
    usage: await productionUsage(orgId),
    alerts: await p.alertEvent.count({ where: { organizationId: orgId } }),
  };
}

describe("evaluations of conversational agents", () => {
  it("replays the last turn of each session against the draft, beside what was recorded, with checks", async () => {
    const { agent, orgId } = await conversational({ type: "echo" }, { type: "echo", delay_ms: 1 });
    for (let i = 0; i < 5; i++)
      await recordedSession(agent, [`first ${i}`, `question ${i}`], new Date(Date.now() - i * 1000));
    const before = await productionCounts(orgId);
    const e = await create(agent, {
      source: { kind: "sessions", limit: 5 },
      checks: [
        { kind: "expression", name: "echoes", expression: '$contains(output, "Echo: " & input)' },
        { kind: "equals_baseline" },
        { kind: "no_error" },
        { kind: "max_latency_ms", value: 60_000 },
      ],
    });
    expect(e).toMatchObject({
      status: "queued",
      candidate: { version: 2, draft: true },
      baseline: { kind: "recorded" },
    });
    expect(e.estimate).toMatchObject({ cases: 5, model_calls: 5, http_calls: 0, tokens: 75 });
    const done = await drain(agent, e.evaluation_id);
    expect(done).toMatchObject({
      status: "completed",
      progress: { total: 5, done: 5 },
      counts: { passed: 0, failed: 5, errored: 0, changed: 5 },
    });
    expect(done.sides.baseline).toMatchObject({
      cases: 5,
      error_rate: 0,
      latency_ms: { p50: 40, p95: 40 },
      tokens: 75,
    });
    expect(done.sides.candidate.cases).toBe(5);
    const list = await cases(agent, e.evaluation_id);
    expect(list.map((c) => c.input)).toEqual([0, 1, 2, 3, 4].map((i) => `question ${i}`));
    const first = list[0]!;
    expect(first.baseline?.output).toBe("recorded 2");
    expect(first.candidate?.output).toBe("Echo: question 0");
    expect(first.checks.map((c) => [c.name, c.passed])).toEqual([
      ["echoes", true],
      ["equals_baseline#2", false],
      ["no_error#3", true],
      ["max_latency_ms#4", true],
    ]);
    expect(first.diff).toEqual([
      { op: "delete", text: "recorded 2" },
      { op: "insert", text: "Echo: question 0" },
    ]);
    // Nothing production reads was written: no session, message, run, delivery, usage or alert. The
    // replays are counted apart, as evaluation usage.
    expect(await productionCounts(orgId)).toEqual(before);
    expect(done.spent.tokens).toBeGreaterThan(0);
    const counted = {
      evaluationCases: 5,
      evaluationTokens: BigInt(done.spent.tokens),
      evaluationCost: expect.closeTo(done.spent.cost_usd, 6),
    };
    expect(await evaluationUsage(orgId)).toEqual(counted);
    // The backfill recomputes the same evaluation usage from the finished cases.
    await backfillUsage({ organizationId: orgId, before: new Date(Date.now() + 7_200_000) });
    expect(await evaluationUsage(orgId)).toEqual(counted);
  });

  it("replays every turn with the history the candidate itself produced, and takes verdicts", async () => {
    const { agent } = await conversational({ type: "echo" }, { type: "http", url: `${upstream.url}/reply` });
    await recordedSession(agent, ["one", "two", "three"]);
    const histories: unknown[] = [];
    upstream.answer((req) => {
      const b = req.body as { message: string; history: unknown[] };
      histories.push(b.history);
      return { json: { content: `re: ${b.message}` } };
    });
    const e = await create(agent, { source: { kind: "sessions", turns: "all" } });
    const done = await drain(agent, e.evaluation_id);
    expect(done.counts).toMatchObject({ passed: 1, changed: 1 });
    const [c] = await cases(agent, e.evaluation_id);
    expect(c!.input).toEqual(["one", "two", "three"]);
    expect(c!.candidate?.output).toEqual(["re: one", "re: two", "re: three"]);
    expect(c!.baseline?.output).toEqual(["recorded 1", "recorded 2", "recorded 3"]);
    // The third turn's history is the candidate's own conversation, not the recorded one.
    expect(histories.at(-1)).toEqual([
      { role: "user", content: "one" },
      { role: "assistant", content: "re: one" },
      { role: "user", content: "two" },
      { role: "assistant", content: "re: two" },
    ]);
    const judged = await judgeCase({
      organizationId: agent.organizationId,
      agentId: agent.id,
      evaluationId: e.evaluation_id,
      caseId: c!.case_id,
      actor,
      verdict: "better",
      note: "cleaner",
    });
    expect(judged).toMatchObject({ verdict: "better", verdict_note: "cleaner", verdict_by: "admin@example.com" });
    const after = await getEvaluation({
      organizationId: agent.organizationId,
      agentId: agent.id,
      evaluationId: e.evaluation_id,
    });
    expect(after.verdicts).toEqual({ better: 1, same: 0, worse: 0 });
  });

  it("counts a candidate's failing runtime as errored and compares two replayed versions", async () => {
    const { agent } = await conversational({ type: "echo" }, { type: "echo", fail: "error" });
    await recordedSession(agent, ["hello"]);
    const e = await create(agent, { source: { kind: "sessions" }, baseline: 1 });
    const done = await drain(agent, e.evaluation_id);
    expect(done).toMatchObject({ baseline: { kind: "version", version: 1 }, counts: { errored: 1 } });
    expect(done.sides.candidate.error_rate).toBe(1);
    expect(done.sides.baseline.error_rate).toBe(0);
    const [c] = await cases(agent, e.evaluation_id, { outcome: "errored" });
    expect(c!.baseline?.output).toBe("Echo: hello");
    expect(c!.candidate).toMatchObject({ output: null, error: "The agent runtime returned an error" });
  });

  it("stops at its token budget and says so, skipping what it did not replay", async () => {
    const { agent } = await conversational({ type: "echo" }, { type: "echo", delay_ms: 1 });
    for (let i = 0; i < 10; i++) await recordedSession(agent, [`a b c d ${i}`]);
    // Each replayed turn costs 5 + 6 = 11 echo tokens; two cases run at once.
    const e = await create(agent, { source: { kind: "sessions", limit: 10 }, budget: { max_tokens: 30 } });
    const done = await drain(agent, e.evaluation_id);
    expect(done).toMatchObject({ status: "stopped", stop_reason: "budget_tokens" });
    expect(done.spent.tokens).toBeGreaterThanOrEqual(30);
    expect(done.counts.passed).toBe(4);
    expect(done.counts.skipped).toBe(6);
    const skipped = await cases(agent, e.evaluation_id, { outcome: "skipped" });
    expect(new Set(skipped.map((c) => c.skip_reason))).toEqual(new Set(["budget"]));
  });

  it("resumes after a worker died holding cases: finished cases are not replayed again", async () => {
    const { agent } = await conversational({ type: "echo" }, { type: "http", url: `${upstream.url}/count` });
    for (let i = 0; i < 6; i++) await recordedSession(agent, [`case ${i}`]);
    const calls: string[] = [];
    upstream.answer((req) => {
      const m = (req.body as { message: string }).message;
      calls.push(m);
      return { json: { content: m } };
    });
    const e = await create(agent, { source: { kind: "sessions", limit: 6 } });
    // A first worker replays two cases, then claims two more and dies: their lease lapses.
    await runEvaluationCases(e.evaluation_id, 2);
    await db.prisma.evaluationCase.updateMany({
      where: { evaluationId: e.evaluation_id, status: "pending", position: { in: [2, 3] } },
      data: { status: "running", claimToken: "dead-worker", claimedUntil: new Date(Date.now() - 1000) },
    });
    expect(calls).toHaveLength(2);
    const done = await drain(agent, e.evaluation_id);
    expect(done).toMatchObject({ status: "completed", counts: { passed: 6 } });
    // Each session's turn reached the candidate exactly once.
    expect([...calls].sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => `case ${i}`).sort());
  });

  it("cancels: pending cases are skipped and the job stops", async () => {
    const { agent } = await conversational({ type: "echo" }, { type: "echo" });
    for (let i = 0; i < 3; i++) await recordedSession(agent, [`x ${i}`]);
    const e = await create(agent, { source: { kind: "sessions" } });
    const ids = { organizationId: agent.organizationId, agentId: agent.id, evaluationId: e.evaluation_id };
    const cancelled = await cancelEvaluation({ ...ids, actor });
    expect(cancelled).toMatchObject({ status: "cancelled", stop_reason: "cancelled", counts: { skipped: 3 } });
    await runEvaluation(e.evaluation_id, { stopping: new AbortController().signal });
    expect((await cases(agent, e.evaluation_id)).every((c) => c.skip_reason === "cancelled")).toBe(true);
    await expect(cancelEvaluation({ ...ids, actor })).rejects.toMatchObject({ code: "evaluation_finished" });
  });

  it("gives an evaluation whose job died with its process a new job, once", async () => {
    const { agent } = await conversational({ type: "echo" }, { type: "echo" });
    await recordedSession(agent, ["orphan"]);
    const e = await create(agent, { source: { kind: "sessions" } });
    // As when the job's last attempt died: no job left for it, and nothing has moved for a while.
    await db.sql.query(`DELETE FROM pgboss.job WHERE name = 'evaluation' AND data->>'evaluationId' = $1`, [
      e.evaluation_id,
    ]);
    await db.prisma.evaluation.update({
      where: { id: e.evaluation_id },
      data: { updatedAt: new Date(Date.now() - 60_000) },
    });
    expect(await resumeOrphanedEvaluations({ graceMs: 30_000 })).toEqual([e.evaluation_id]);
    // Its new job is live: the next sweep leaves it alone.
    expect(await resumeOrphanedEvaluations({ graceMs: 0 })).toEqual([]);
    const [job] = await db.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'evaluation' AND data->>'evaluationId' = $1`,
      [e.evaluation_id],
    );
    expect(job!.n).toBe(1);
  });

  it("completes 200 cases on the echo runtime", async () => {
    const { agent } = await conversational({ type: "echo" }, { type: "echo" });
    const now = Date.now();
    for (let i = 0; i < 200; i++) await recordedSession(agent, [`m${i}`], new Date(now - i));
    const e = await create(agent, { source: { kind: "sessions", limit: 200 }, checks: [{ kind: "no_error" }] });
    const done = await drain(agent, e.evaluation_id);
    expect(done).toMatchObject({ status: "completed", progress: { total: 200, done: 200 }, counts: { passed: 200 } });
  });
});

/** Replays exactly `n` cases as one worker would, then stops (a worker that stopped there). */
async function runEvaluationCases(evaluationId: string, n: number) {
  const ids = (await db.prisma.evaluationCase.findMany({ where: { evaluationId }, orderBy: { position: "asc" } }))
    .slice(n)
    .map((c) => c.id);
  // Hold back every case after the first n (another worker's claim), run a worker until those n are
  // done (it then waits for the held ones), stop it, then release them.
  await db.prisma.evaluationCase.updateMany({
    where: { id: { in: ids } },
    data: { status: "running", claimToken: "held", claimedUntil: new Date(Date.now() + 60_000) },
  });
  const stopping = new AbortController();
  const watcher = setInterval(() => {
    void db.prisma.evaluationCase.count({ where: { evaluationId, status: "done" } }).then((done) => {
      if (done >= n) stopping.abort();
    });
  }, 20);
  await runEvaluation(evaluationId, { stopping: stopping.signal });
  clearInterval(watcher);
  await db.prisma.evaluationCase.updateMany({
    where: { id: { in: ids } },
    data: { status: "pending", claimToken: null, claimedUntil: null },
  });
}

describe("evaluations of workflows", () => {
  const WORKFLOW = (url: string) => ({
    inputs: { rows: { type: "array", required: true } },
    items: { from: "rows" },
    steps: [
      { id: "lookup", type: "http", url: `${url}/lookup` },
      { id: "pause", type: "wait", ms: 60_000, when: "false" },
      { id: "score", type: "transform", expression: "$merge([item, {'score': item.lookup.value * 2}])" },
    ],
  });

  async function recordedRun() {
    const { agent, key } = await workflowAgent(WORKFLOW(upstream.url));
    upstream.answer((req) => ({ json: { value: (req.body as { item: { n: number } }).item.n } }));
    const runId = await startRun(agent, key, { rows: [{ n: 1 }, { n: 2 }, { n: 3 }] });
    const run = await drive(runId);
    expect(run.status).toBe("completed");
    return { agent, runId };
  }

  it("replays the recorded http answers by default: the receiver sees no call", async () => {
    const { agent } = await recordedRun();
    const before = upstream.requests.length;
    const counts = await productionCounts(agent.organizationId);
    const e = await create(agent, { candidate: 1, source: { kind: "runs" }, checks: [{ kind: "equals_baseline" }] });
    const done = await drain(agent, e.evaluation_id);
    expect(upstream.requests.length).toBe(before);
    expect(done.counts).toMatchObject({ passed: 1, changed: 0 });
    const [c] = await cases(agent, e.evaluation_id);
    expect((c!.candidate!.output as { data: { score: number } }[]).map((i) => i.data.score)).toEqual([2, 4, 6]);
    expect(await productionCounts(agent.organizationId)).toEqual(counts);
  });

  it("sends http steps for real only with live_calls, with their own Idempotency-Key", async () => {
    const { agent } = await recordedRun();
    const before = upstream.requests.length;
    const e = await create(agent, { candidate: 1, source: { kind: "runs" }, live_calls: true });
    expect(e.estimate.http_calls).toBe(3);
    await drain(agent, e.evaluation_id);
    const sent = upstream.requests.slice(before);
    expect(sent).toHaveLength(3);
    expect(sent.every((r) => String(r.headers["idempotency-key"]).startsWith("evaluation/evc_"))).toBe(true);
  });

  it("marks an item whose http step has nothing recorded skipped_no_recording", async () => {
    const { agent, runId } = await recordedRun();
    // As a run recorded before recordings existed: its trace has no answers.
    await db.prisma.runItem.updateMany({ where: { runId }, data: { steps: [] } });
    const e = await create(agent, { candidate: 1, source: { kind: "runs" } });
    await drain(agent, e.evaluation_id);
    const [c] = await cases(agent, e.evaluation_id);
    expect((c!.candidate!.output as { status: string }[]).map((i) => i.status)).toEqual(
      Array(3).fill("skipped_no_recording"),
    );
  });

  it("bounds a json_schema check whose pattern backtracks: the check fails, the evaluation completes", async () => {
    const { agent } = await recordedRun();
    const e = await create(agent, {
      candidate: 1,
      source: { kind: "runs" },
      checks: [
        { kind: "json_schema", name: "shape", schema: { type: "object", required: ["score"] } },
        {
          kind: "json_schema",
          name: "evil",
          schema: { type: "object", properties: { text: { type: "string", pattern: "^(a+)+$" } } },
        },
      ],
    });
    await db.prisma.runItem.updateMany({
      where: { run: { agentId: agent.id } },
      data: { data: { n: 1, text: `${"a".repeat(40)}!` } },
    });
    const done = await drain(agent, e.evaluation_id);
    expect(done.status).toBe("completed");
    const [c] = await cases(agent, e.evaluation_id);
    expect(c!.checks.map((k) => [k.name, k.passed])).toEqual([
      ["shape", true],
      ["evil", false],
    ]);
    expect(c!.checks[1]!.message).toMatch(/longer than \d+ ms/);
  });
});

describe("evaluation requests that are refused", () => {
  it("names what is wrong", async () => {
    const { agent } = await conversational({ type: "echo" }, { type: "echo" });
    const other = await conversational({ type: "echo" });
    const attempt = (b: Record<string, unknown>, a: Agent = agent) =>
      createEvaluation({ organizationId: a.organizationId, agentId: a.id, actor, body: body(b) });
    await expect(attempt({ source: { kind: "sessions" } })).rejects.toMatchObject({ code: "empty_source" });
    await recordedSession(agent, ["hi"]);
    await expect(attempt({ source: { kind: "runs" } })).rejects.toMatchObject({
      code: "invalid_request",
      details: { fields: [{ field: "source.kind" }] },
    });
    await expect(
      attempt({
        source: { kind: "sessions" },
        checks: [{ kind: "expression", name: "broken", expression: "output = (" }],
      }),
    ).rejects.toMatchObject({
      code: "invalid_check",
      message: expect.stringContaining('"broken"'),
      details: { fields: [{ field: "checks[0].expression" }] },
    });
    await expect(attempt({ source: { kind: "sessions" }, candidate: 7 })).rejects.toMatchObject({
      code: "invalid_agent_version",
      details: { fields: [{ field: "candidate" }] },
    });
    await expect(attempt({ source: { kind: "sessions", filters: { status: "bogus" } } })).rejects.toMatchObject({
      code: "invalid_request",
      details: { fields: [{ field: "source.filters.status" }] },
    });
    await expect(attempt({ source: { kind: "sessions" } }, other.agent)).rejects.toMatchObject({
      code: "invalid_agent_version",
    });
    // Another organization's agent is not found from this one.
    await expect(
      createEvaluation({
        organizationId: other.orgId,
        agentId: agent.id,
        actor,
        body: body({ source: { kind: "sessions" } }),
      }),
    ).rejects.toMatchObject({ code: "agent_not_found" });
    const dry = await attempt({ source: { kind: "sessions" }, dry_run: true });
    expect(dry).toMatchObject({ dryRun: true, answer: { dry_run: true, estimate: { cases: 1, model_calls: 1 } } });
    // At most EVALUATIONS_PER_ORG (3) queued or running.
    for (let i = 0; i < 3; i++) await attempt({ source: { kind: "sessions" } });
    await expect(attempt({ source: { kind: "sessions" } })).rejects.toMatchObject({
      code: "too_many_evaluations",
      details: { retry_after_seconds: 30 },
    });
    await db.prisma.agent.update({ where: { id: agent.id }, data: { archivedAt: new Date() } });
    await expect(attempt({ source: { kind: "sessions" } })).rejects.toMatchObject({ code: "agent_archived" });
  });
});
