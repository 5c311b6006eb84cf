// Expressions are attacker input (docs/security.md, "expression evaluation" and "regular expressions"):
// any org admin writes a workflow's JSONata, any key holder triggers it. These tests attack the
// running production server from outside: a non-terminating, memory-hungry or catastrophically
// backtracking expression must fail its own item (expression_timeout / expression_too_large) while
// the server keeps answering everybody, and a definition that is expensive to parse is refused at
// save time without stalling the server. A frozen server never answers: every probe is bounded.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createAgent, ctx, mintKey } from "../api/helpers";
import { ownServer, type OwnServer } from "../api/server";

/** The bound: while an attack runs, health and another organization's trigger answer within this. */
const ANSWER_MS = 1000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Worst latencies seen by the probes of this file, printed at the end for the report. */
const worst: Record<string, number> = {};
afterAll(() => console.log(`probe worst case (ms): ${JSON.stringify(worst)}`));

/**
 * One probe: `request` must answer within ANSWER_MS. Aborted a while after that, so that a frozen
 * server fails the test instead of hanging it.
 */
async function probe(label: string, request: (signal: AbortSignal) => Promise<Response>) {
  const started = performance.now();
  const res = await request(AbortSignal.timeout(ANSWER_MS * 5)).catch((e: Error) => e);
  const ms = performance.now() - started;
  worst[label] = Math.max(worst[label] ?? 0, Math.round(ms));
  if (res instanceof Error) throw new Error(`${label}: no answer within ${ANSWER_MS * 5} ms (${res.message})`);
  expect(res.status, `${label} status`).toBeLessThan(300);
  await res.arrayBuffer();
  expect(ms, `${label} answered in ${Math.round(ms)} ms`).toBeLessThan(ANSWER_MS);
}

interface Target {
  baseUrl: string;
  /** Org B's conversational echo agent and key (the shared server), or the same org's (own server). */
  echo: { agent: string; key: string };
}

/** Health and the other organization's synchronous echo trigger, each within ANSWER_MS. */
async function probeBoth(t: Target) {
  await probe("health", (signal) => fetch(`${t.baseUrl}/api/health`, { signal }));
  await probe("echo trigger", (signal) =>
    fetch(`${t.baseUrl}/api/agents/webhook/${t.echo.agent}`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.echo.key}`, "content-type": "application/json" },
      body: JSON.stringify({ message: "are you there?" }),
      signal,
    }),
  );
}

/** A JSON call that a frozen server cannot hang (the trigger's 202 never arrived in the issue). */
async function send(t: { baseUrl: string }, method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${t.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(ANSWER_MS * 5),
  });
  return { status: res.status, body: (await res.json()) as any };
}
const getJson = async (t: Target, path: string, key: string) => (await send(t, "GET", path, key)).body;

/** Probes the server until the run leaves pending/running (bounded), then returns the run. */
async function probeUntilDone(t: Target, agent: string, runId: string, key: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await probeBoth(t);
    const run = await getJson(t, `/api/agents/${agent}/runs/${runId}`, key);
    if (!["pending", "running"].includes(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status} after ${timeoutMs} ms`);
    await sleep(50);
  }
}

async function outputLines(run: { output_files: { url: string }[] }) {
  const text = await (await fetch(run.output_files[0]!.url)).text();
  return text
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { index: number; status: string; result: unknown; error: string | null });
}

/** A workflow whose item 1 runs `hostile`; items 0 and 2 are ordinary. */
const hostileWorkflow = (hostile: string, onError: "fail_item" | "review" = "fail_item") => ({
  name: "hostile",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "array", required: true } },
    items: { from: "rows" },
    steps: [
      {
        id: "t",
        type: "transform",
        expression: `item.bad ? (${hostile}) : $merge([item, {'ok': true}])`,
        on_error: onError,
      },
    ],
    output: { filename: "out.jsonl", format: "jsonl" },
  },
});
const ROWS = [{ n: 0 }, { n: 1, bad: true }, { n: 2 }];

const TIMEOUT_ERROR = 'Step "t" (transform): expression_timeout: the expression did not finish within 1000 ms';
const BOUND_ERROR = /^Step "t" \(transform\): expression_(timeout|too_large): /;
const TOO_LARGE = /^Step "t" \(transform\): expression_too_large: /;

let shared: Target;
let keyA: string;
beforeAll(async () => {
  const { orgA, orgB } = ctx();
  keyA = (await mintKey(orgA, ["agents:invoke"], "attacker")).key;
  const keyB = (await mintKey(orgB, ["agents:invoke"], "bystander")).key;
  const echo = (await createAgent(orgB, { name: "echo B", kind: "conversational", runtime: { type: "echo" } }))
    .agent_id;
  shared = { baseUrl: ctx().baseUrl, echo: { agent: echo, key: keyB } };
});

const CASES: { name: string; hostile: string; error: string | RegExp }[] = [
  { name: "tail recursion that never ends", hostile: "($f := function($x){ $f($x) }; $f(0))", error: TIMEOUT_ERROR },
  { name: "a loop over an unbounded range", hostile: "$string([1..10000000])", error: BOUND_ERROR },
  // Building 100 MB (or 20 MB) takes a few hundred milliseconds on a quiet machine: on a loaded one
  // the time bound may end it first (CI saw expression_timeout once); either bound is the guard.
  { name: "a 100,000,000-character string", hostile: '$length($pad("", 100000000))', error: BOUND_ERROR },
  {
    name: "a string doubled in a loop",
    hostile: '($d := function($s, $n){ $n = 0 ? $s : $d($s & $s, $n - 1) }; $length($d("ab", 30)))',
    error: TOO_LARGE,
  },
  {
    name: "a result larger than the cap, built within the memory limit",
    hostile: '$pad("", 20000000)',
    error: BOUND_ERROR,
  },
  {
    name: "a catastrophically backtracking regular expression",
    hostile: '$match("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", /(a+)+$/)',
    error: TIMEOUT_ERROR,
  },
];

describe("T-EXPR-1 an expression that does not end, or grows without bound, fails its own item only", () => {
  it.each(CASES)("$name: the server answers everybody meanwhile; the other items are processed", async (c) => {
    const { orgA } = ctx();
    const agent = (await createAgent(orgA, hostileWorkflow(c.hostile))).agent_id;
    const started = await send(shared, "POST", `/api/agents/webhook/${agent}`, keyA, { rows: ROWS });
    expect(started.status).toBe(202);
    const run = await probeUntilDone(shared, agent, started.body.run_id, keyA);
    expect(run.status).toBe("completed");
    expect(run.item_counts).toEqual({ completed: 2, failed: 1, needs_review: 0, total: 3 });
    const lines = await outputLines(run);
    expect(lines.map((l) => [l.index, l.status])).toEqual([
      [0, "completed"],
      [1, "failed"],
      [2, "completed"],
    ]);
    expect(lines[0]!.result).toEqual({ n: 0, ok: true });
    expect(lines[2]!.result).toEqual({ n: 2, ok: true });
    expect(lines[1]!.error).toMatch(c.error);
  });
});

describe("T-EXPR-2 regular expressions: a catastrophic pattern in $match, $replace, $contains, $split", () => {
  const EVIL = '"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"';
  it.each([
    ["$replace", `$replace(${EVIL}, /(a+)+$/, "b")`],
    ["$contains", `$contains(${EVIL}, /(a|aa)+$/)`],
    ["$split", `$split(${EVIL}, /(a*)*b/)`],
  ])("%s: the item goes to review with expression_timeout, the server answers meanwhile", async (_fn, hostile) => {
    const { orgA } = ctx();
    const agent = (await createAgent(orgA, hostileWorkflow(hostile, "review"))).agent_id;
    const started = await send(shared, "POST", `/api/agents/webhook/${agent}`, keyA, { rows: ROWS });
    expect(started.status).toBe(202);
    const run = await probeUntilDone(shared, agent, started.body.run_id, keyA);
    expect(run.status).toBe("needs_review");
    expect(run.item_counts).toEqual({ completed: 2, failed: 0, needs_review: 1, total: 3 });
    const approvals = await call("GET", `/api/agents/${agent}/runs/${run.run_id}/approvals`, { auth: keyA });
    expect(approvals.body).toHaveLength(1);
    expect(approvals.body[0]).toMatchObject({ data: { n: 1, bad: true }, error: TIMEOUT_ERROR });
  });
});

describe("T-EXPR-3 definitions that are expensive to check are refused at save time, never stalling the server", () => {
  const createWhileProbing = async (workflow: unknown) => {
    const { orgA } = ctx();
    const pending = call("POST", `/api/v1/organizations/${orgA.organization_id}/agents`, {
      auth: orgA.user_token,
      body: { name: "big", kind: "workflow", runtime: { type: "echo" }, workflow },
    });
    await sleep(100);
    await probeBoth(shared);
    return pending;
  };
  const oneStep = (step: Record<string, unknown>) => ({
    inputs: { rows: { type: "array" } },
    items: { from: "rows" },
    steps: [{ id: "s", ...step }],
  });

  it("100 steps of 8,000-character paths (quadratic for JSONata's parser): 400 naming the field", async () => {
    const path = Array.from({ length: 4_000 }, () => "a").join(".");
    const res = await createWhileProbing({
      ...oneStep({ type: "transform", expression: path }),
      steps: Array.from({ length: 100 }, (_, i) => ({ id: `s${i}`, type: "transform", expression: path })),
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.details.fields[0].field).toBe("workflow.steps.0.expression");
  });

  it("an llm prompt of 400,000 characters of '{{': 400 naming the field", async () => {
    const res = await createWhileProbing(oneStep({ type: "llm", prompt: "{{".repeat(200_000) }));
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.details.fields[0].field).toBe("workflow.steps.0.prompt");
  });
});

describe("T-EXPR-4 a server killed with such a run in flight does not freeze again after its restart", () => {
  let own: OwnServer | undefined;
  afterAll(() => own?.dispose());

  it("answers health and triggers after the restart, and the run finishes", { timeout: 300_000 }, async () => {
    own = await ownServer("expr-restart", {
      // The shortest heartbeat: the killed pass is taken up again 10 s after the restart.
      QUEUE_HEARTBEAT_SECONDS: "10",
      QUEUE_SUPERVISE_SECONDS: "1",
    });
    const o = own;
    const key = await o.mintKey();
    const echo = await o.createAgent({ name: "echo", kind: "conversational", runtime: { type: "echo" } });
    const agent = await o.createAgent(hostileWorkflow("($f := function($x){ $f($x) }; $f(0))"));
    const target = (): Target => ({ baseUrl: o.server.baseUrl, echo: { agent: echo, key } });
    // Every other item never ends: each takes the whole deadline, so the run is long enough to be
    // in flight when the server is killed.
    const rows = Array.from({ length: 10 }, (_, n) => ({ n, bad: n % 2 === 1 }));
    const started = await send(target(), "POST", `/api/agents/webhook/${agent}`, key, { rows });
    expect(started.status).toBe(202);
    const runId = started.body.run_id as string;
    const runPath = `/api/agents/${agent}/runs/${runId}`;

    // In flight: running, a hostile item already met, some items still pending.
    const deadline = Date.now() + 60_000;
    let before = await getJson(target(), runPath, key);
    while (before.item_counts.failed < 1 && Date.now() < deadline) {
      await probeBoth(target());
      before = await getJson(target(), runPath, key);
    }
    expect(before.status).toBe("running");
    expect(before.item_counts.completed + before.item_counts.failed).toBeLessThan(rows.length);

    await o.restart("SIGKILL");
    const done = await probeUntilDone(target(), agent, runId, key, 120_000);
    expect(done.status).toBe("completed");
    expect(done.item_counts).toEqual({ completed: 5, failed: 5, needs_review: 0, total: 10 });
    const lines = await outputLines(done);
    for (const l of lines) {
      if (l.index % 2 === 1) expect([l.status, l.error]).toEqual(["failed", TIMEOUT_ERROR]);
      else expect(l).toMatchObject({ status: "completed", result: { n: l.index, bad: false, ok: true } });
    }
  });
});

describe("T-EXPR-5 an evaluation's checks: refused when they do not compile, bounded when they run", () => {
  const BAIT = `${"a".repeat(36)}!`;
  const steps = (id: string) => ({
    inputs: { rows: { type: "array", required: true } },
    items: { from: "rows" },
    steps: [{ id, type: "transform", expression: "item" }],
  });
  let agent: string;
  const evaluations = () => `/api/v1/organizations/${ctx().orgA.organization_id}/agents/${agent}/evaluations`;
  const evaluate = (checks: unknown[]) =>
    call("POST", evaluations(), {
      auth: ctx().orgA.user_token,
      body: { source: { kind: "runs", limit: 1 }, checks },
    });

  beforeAll(async () => {
    const { orgA } = ctx();
    agent = (
      await createAgent(orgA, { name: "evaluated", kind: "workflow", runtime: { type: "echo" }, workflow: steps("t") })
    ).agent_id;
    // A recorded run whose item carries the bait of a backtracking pattern.
    const started = await send(shared, "POST", `/api/agents/webhook/${agent}`, keyA, { rows: [{ s: BAIT }] });
    expect(started.status).toBe(202);
    expect((await probeUntilDone(shared, agent, started.body.run_id, keyA)).status).toBe("completed");
    const draft = await call("PATCH", `/api/v1/organizations/${orgA.organization_id}/agents/${agent}`, {
      auth: orgA.user_token,
      body: { workflow: steps("u"), base_version: 1 },
    });
    expect(draft.status, draft.text).toBe(200);
  });

  const deep = (n: number, leaf: unknown = { type: "string" }): unknown =>
    n === 0 ? leaf : { not: deep(n - 1, leaf) };
  it.each([
    [
      "an expression that does not parse",
      { kind: "expression", name: "x", expression: "$contains(output" },
      "expression",
    ],
    ["a schema that is not one", { kind: "json_schema", schema: { type: 5 } }, "schema"],
    ["a pattern that is not a regular expression", { kind: "json_schema", schema: { pattern: "(" } }, "schema"],
    // As deep as a body may nest (100 levels): the compiler meets its error at the bottom.
    ["a schema 95 deep that does not compile", { kind: "json_schema", schema: deep(95, { type: 5 }) }, "schema"],
  ])("%s: 400 invalid_check naming it, the server answering meanwhile", async (_name, check, field) => {
    const pending = evaluate([{ kind: "no_error" }, check]);
    await probeBoth(shared);
    const res = await pending;
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.code).toBe("invalid_check");
    expect(res.body.error.details.fields[0].field).toBe(`checks[1].${field}`);
  });

  it("a schema nested 3,000 deep is refused before any compiler sees it", async () => {
    const res = await evaluate([{ kind: "json_schema", schema: deep(3_000) }]);
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.details.fields[0].message).toBe("is nested deeper than 100 levels");
  });

  it("checks that never end, grow without bound or backtrack fail their case; the evaluation completes", async () => {
    const res = await evaluate([
      { kind: "expression", name: "never ends", expression: "($f := function($x){ $f($x) }; $f(0))" },
      { kind: "expression", name: "grows", expression: '$length($pad("", 100000000)) > 0' },
      { kind: "json_schema", name: "backtracks", schema: { properties: { s: { pattern: "(a+)+$" } } } },
      { kind: "no_error" },
    ]);
    expect(res.status, res.text).toBe(201);
    const path = `${evaluations()}/${res.body.evaluation_id}`;
    const deadline = Date.now() + 60_000;
    let e = res.body;
    while (!["completed", "failed", "stopped", "cancelled"].includes(e.status)) {
      if (Date.now() > deadline) throw new Error(`evaluation still ${e.status}`);
      await probeBoth(shared);
      e = (await call("GET", path, { auth: ctx().orgA.user_token })).body;
    }
    expect(e).toMatchObject({ status: "completed", counts: { passed: 0, failed: 1, errored: 0 } });
    const cases = await call("GET", `${path}/cases`, { auth: ctx().orgA.user_token });
    const checks = cases.body.cases[0].checks as { name: string; passed: boolean; message: string | null }[];
    expect(checks.map((c) => [c.name, c.passed])).toEqual([
      ["never ends", false],
      ["grows", false],
      ["backtracks", false],
      ["no_error#4", true],
    ]);
    expect(checks[0]!.message).toMatch(/^expression_timeout: /);
    expect(checks[1]!.message).toMatch(/^expression_(timeout|too_large): /);
    expect(checks[2]!.message).toMatch(/^the schema check took longer than \d+ ms$/);
  });
});
