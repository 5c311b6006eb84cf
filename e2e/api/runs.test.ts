// Workflow runs through real HTTP (docs/workflows.md; docs/api.md, Trigger):
// triggers, the runs API, every control transition allowed and refused, approvals, retry, output files.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeUpstream, type FakeUpstream } from "../../test-support/runtime";
import { call, createAgent, ctx, ECHO_AGENT, expectError, mintKey } from "./helpers";

let key: string;
let keyB: string;
let upstream: FakeUpstream;
const agents = {} as Record<"orders" | "slow" | "blocker" | "fatal" | "flaky" | "conversational" | "other", string>;

const wf = (name: string, workflow: unknown) => ({ name, kind: "workflow", runtime: { type: "echo" }, workflow });
const rowsInput = { rows: { type: "array", required: true } };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function trigger(agent: string, body: unknown, auth = key) {
  const res = await call("POST", `/api/agents/webhook/${agent}`, { auth, body });
  expect(res.status, res.text).toBe(202);
  return res.body.run_id as string;
}

const getRun = (agent: string, runId: string, auth = key) =>
  call("GET", `/api/agents/${agent}/runs/${runId}`, { auth });
const control = (agent: string, runId: string, action: string, query = "") =>
  call("POST", `/api/agents/${agent}/runs/${runId}/${action}${query}`, { auth: key });

async function waitFor(agent: string, runId: string, ok: (run: any) => boolean, auth = key, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await getRun(agent, runId, auth);
    if (ok(res.body)) return res.body;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not get there: ${res.text}`);
    await sleep(50);
  }
}

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ n: i }));

beforeAll(async () => {
  const { orgA, orgB } = ctx();
  key = (await mintKey(orgA, ["agents:invoke"], "runs key")).key;
  keyB = (await mintKey(orgB, ["agents:invoke"], "runs key B")).key;
  upstream = await startFakeUpstream();
  agents.orders = (
    await createAgent(
      orgA,
      wf("orders", {
        inputs: { ...rowsInput, threshold: { type: "number", required: true }, label: { type: "string" } },
        items: { from: "rows" },
        steps: [
          {
            id: "total",
            type: "transform",
            expression: "$merge([item, {'total': item.qty * item.price, 'label': inputs.label}])",
          },
          { id: "zero", type: "skip", when: "item.qty = 0" },
          { id: "reject", type: "fail", when: "item.total < 0", message: "negative total" },
          { id: "big", type: "review", when: "item.total > inputs.threshold", message: "large order" },
        ],
        output: { filename: "orders.jsonl", format: "jsonl" },
      }),
    )
  ).agent_id;
  agents.slow = (
    await createAgent(
      orgA,
      wf("slow", { inputs: rowsInput, items: { from: "rows" }, steps: [{ id: "pace", type: "wait", ms: 100 }] }),
    )
  ).agent_id;
  agents.blocker = (
    await createAgent(orgA, wf("blocker", { inputs: {}, steps: [{ id: "hold", type: "wait", ms: 120_000 }] }))
  ).agent_id;
  agents.fatal = (
    await createAgent(
      orgA,
      wf("fatal", {
        inputs: rowsInput,
        items: { from: "rows" },
        steps: [{ id: "boom", type: "fail", when: "item.n = 1", fatal: true, message: "bad row" }],
      }),
    )
  ).agent_id;
  agents.flaky = (
    await createAgent(
      orgA,
      wf("flaky", {
        inputs: rowsInput,
        items: { from: "rows" },
        steps: [
          {
            id: "send",
            type: "http",
            url: `${upstream.url}/send`,
            timeout_ms: 5000,
            on_error: "fail_run",
            into: "sent",
          },
        ],
        output: { filename: "sent.csv", format: "csv" },
      }),
    )
  ).agent_id;
  agents.conversational = (await createAgent(orgA, ECHO_AGENT)).agent_id;
  agents.other = (
    await createAgent(
      orgB,
      wf("other", {
        inputs: rowsInput,
        items: { from: "rows" },
        steps: [{ id: "t", type: "transform", expression: "item" }],
      }),
    )
  ).agent_id;
});

afterAll(async () => {
  await upstream.close();
});

describe("workflow trigger", () => {
  it("answers 202 with run_id, status pending and agent_id, and the run completes with the documented run shape", async () => {
    const res = await call("POST", `/api/agents/webhook/${agents.orders}`, {
      auth: key,
      body: {
        rows: [
          { qty: 1, price: 2 },
          { qty: 0, price: 1 },
          { qty: -1, price: 1 },
        ],
        threshold: 100,
      },
    });
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(["agent_id", "agent_version", "run_id", "status"]);
    expect(res.body.agent_version).toBe(1);
    expect(res.body).toMatchObject({ status: "pending", agent_id: agents.orders });
    expect(res.body.run_id).toMatch(/^run_/);
    const run = await waitFor(agents.orders, res.body.run_id, (r) => r.status === "completed");
    expect(Object.keys(run).sort()).toEqual(
      [
        "run_id",
        "agent_id",
        "status",
        "progress_percent",
        "started_at",
        "completed_at",
        "duration_seconds",
        "trigger_type",
        "error",
        "agent_version",
        "summary",
        "item_counts",
        "output_files",
        "events",
      ].sort(),
    );
    expect(run).toMatchObject({
      run_id: res.body.run_id,
      agent_id: agents.orders,
      progress_percent: 100,
      trigger_type: "event",
      error: null,
      summary: { total_processed: 3, successful: 1, failed: 1, exceptions: 0, skipped: 1 },
      item_counts: { completed: 2, failed: 1, needs_review: 0, total: 3 },
    });
    expect(Date.parse(run.started_at)).toBeLessThanOrEqual(Date.parse(run.completed_at));
    expect(typeof run.duration_seconds).toBe("number");
  });

  it("refuses missing and mistyped inputs with 400 invalid_request naming each field", async () => {
    const res = await call("POST", `/api/agents/webhook/${agents.orders}`, {
      auth: key,
      body: { threshold: "high", label: 5 },
    });
    expectError(res, 400, "invalid_request");
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      "label",
      "rows",
      "threshold",
    ]);
  });

  it("refuses a file reference to a file that does not exist before creating a run", async () => {
    const agent = (
      await createAgent(
        ctx().orgA,
        wf("files", {
          inputs: { doc: { type: "file", required: true } },
          steps: [{ id: "t", type: "transform", expression: "item" }],
        }),
      )
    ).agent_id;
    const before = await call("GET", `/api/agents/${agent}/runs`, { auth: key });
    const res = await call("POST", `/api/agents/webhook/${agent}`, {
      auth: key,
      body: { doc: { file_id: `fi_${"0".repeat(32)}` } },
    });
    expectError(res, 400, "file_not_found");
    // A bare id is not resolved (SPEC 4.1): the error says what to send instead.
    const bare = `fi_${"0".repeat(32)}`;
    const bad = await call("POST", `/api/agents/webhook/${agent}`, { auth: key, body: { doc: bare } });
    expectError(bad, 400, "invalid_request");
    expect(bad.body.error.details.fields).toEqual([
      {
        field: "doc",
        message: `must be a file reference object {"file_id": "fi_..."}, not a bare id: send {"file_id": "${bare}"}`,
      },
    ]);
    expect((await call("GET", `/api/agents/${agent}/runs`, { auth: key })).body).toEqual(before.body);
  });

  it("POST /api/workflows/{agent_id}/trigger runs payload merged with variables and answers status triggered", async () => {
    const res = await call("POST", `/api/workflows/${agents.orders}/trigger`, {
      auth: key,
      body: {
        payload: { rows: [{ qty: 2, price: 3 }], threshold: 1, label: "from payload" },
        variables: { threshold: 100, label: "var" },
      },
    });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toEqual({ run_id: expect.stringMatching(/^run_/), status: "triggered" });
    const run = await waitFor(agents.orders, res.body.run_id, (r) => r.status === "completed");
    expect(run.item_counts).toEqual({ completed: 1, failed: 0, needs_review: 0, total: 1 });
    const file = await fetch(run.output_files[0].url);
    expect(file.status).toBe(200);
    const line = JSON.parse((await file.text()).trim());
    expect(line).toMatchObject({ index: 0, status: "completed", result: { qty: 2, price: 3, total: 6, label: "var" } });
  });

  it("refuses the workflows trigger for a conversational agent", async () => {
    const res = await call("POST", `/api/workflows/${agents.conversational}/trigger`, {
      auth: key,
      body: { payload: {} },
    });
    expectError(res, 400, "runtime_not_applicable");
  });
});

describe("runs API", () => {
  it("lists runs as a bare array, newest first, default 20, capped at 100, filtered by status", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 22; i++) ids.push(await trigger(agents.other, { rows: [] }, keyB));
    const list = await call("GET", `/api/agents/${agents.other}/runs`, { auth: keyB });
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body).toHaveLength(20);
    expect(list.body.map((r: { run_id: string }) => r.run_id)).toEqual(ids.slice(2).reverse());
    for (const r of list.body) expect(r).not.toHaveProperty("output_files");
    const all = await call("GET", `/api/agents/${agents.other}/runs?limit=1000&unknown=1`, { auth: keyB });
    expect(all.body).toHaveLength(22);
    const two = await call("GET", `/api/agents/${agents.other}/runs?limit=2`, { auth: keyB });
    expect(two.body).toHaveLength(2);
    for (const bad of ["0", "-1", "abc", "1.5"]) {
      expectError(
        await call("GET", `/api/agents/${agents.other}/runs?limit=${bad}`, { auth: keyB }),
        400,
        "invalid_request",
      );
    }
    await waitFor(agents.other, ids[21]!, (r) => r.status === "completed", keyB);
    const done = await call("GET", `/api/agents/${agents.other}/runs?status=completed&limit=100`, { auth: keyB });
    expect(done.body.length).toBeGreaterThan(0);
    expect(done.body.every((r: { status: string }) => r.status === "completed")).toBe(true);
    expect((await call("GET", `/api/agents/${agents.other}/runs?status=cancelled`, { auth: keyB })).body).toEqual([]);
    expectError(
      await call("GET", `/api/agents/${agents.other}/runs?status=done`, { auth: keyB }),
      400,
      "invalid_status",
    );
  });

  it("answers run routes of a conversational agent with 400 runtime_not_applicable", async () => {
    const a = agents.conversational;
    for (const [method, path] of [
      ["GET", `/api/agents/${a}/runs`],
      ["GET", `/api/agents/${a}/runs/run_x`],
      ["POST", `/api/agents/${a}/runs/run_x/pause`],
      ["GET", `/api/agents/${a}/runs/run_x/approvals`],
    ] as const) {
      expectError(await call(method, path, { auth: key }), 400, "runtime_not_applicable");
    }
  });

  it("answers 404 run_not_found for a run of another agent or another organization", async () => {
    const runId = await trigger(agents.orders, { rows: [], threshold: 1 });
    expectError(await getRun(agents.slow, runId), 404, "run_not_found");
    expectError(await control(agents.slow, runId, "cancel"), 404, "run_not_found");
    expectError(await getRun(agents.other, runId, keyB), 404, "run_not_found");
    expectError(await getRun(agents.orders, "run_doesnotexist"), 404, "run_not_found");
    expectError(await getRun(agents.orders, runId, keyB), 404, "agent_not_found");
  });

  it("serves output files through fresh 15-minute signed URLs and refuses tampered ones", async () => {
    const runId = await trigger(agents.orders, { rows: [{ qty: 1, price: 1 }], threshold: 10 });
    const first = await waitFor(agents.orders, runId, (r) => r.status === "completed");
    expect(first.output_files).toHaveLength(1);
    const f = first.output_files[0];
    expect(f).toMatchObject({ filename: "orders.jsonl", content_type: "application/x-ndjson" });
    expect(f.size_bytes).toBeGreaterThan(0);
    const ttl = Date.parse(f.url_expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    const ok = await fetch(f.url);
    expect(ok.status).toBe(200);
    expect((await ok.arrayBuffer()).byteLength).toBe(f.size_bytes);
    await sleep(1100);
    const second = (await getRun(agents.orders, runId)).body.output_files[0];
    expect(second.url).not.toBe(f.url);
    expect(Date.parse(second.url_expires_at)).toBeGreaterThan(Date.parse(f.url_expires_at));
    const url = new URL(f.url);
    const token = url.searchParams.get("token")!;
    url.searchParams.set("token", token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA"));
    expect((await fetch(url)).status).toBe(403);
  });
});

describe("controls (docs/workflows.md, States and transitions), allowed and refused", () => {
  const expectRefused = async (agent: string, runId: string, action: string, current: string) => {
    const res = await control(agent, runId, action);
    expectError(res, 409, "invalid_state_transition");
    expect(res.body.error.details.current_status).toBe(current);
    return res.body.error.details.allowed_actions as string[];
  };
  const expectMoved = async (agent: string, runId: string, action: string, to: string, by?: string) => {
    const res = await control(agent, runId, action, by ? `?triggered_by=${encodeURIComponent(by)}` : "");
    expect(res.status, res.text).toBe(200);
    expect(res.body.run_id).toBe(runId);
    expect(res.body.status).toBe(to);
    expect((await getRun(agent, runId)).body.status === to || to === "pending" || to === "running").toBe(true);
    return res.body;
  };

  it("pending: pause and cancel apply; resume and retry are refused", async () => {
    // Four long runs fill the run worker slots, so new runs wait in pending.
    const blockers = [];
    for (let i = 0; i < 4; i++) blockers.push(await trigger(agents.blocker, {}));
    for (const b of blockers) await waitFor(agents.blocker, b, (r) => r.status === "running");
    try {
      const a = await trigger(agents.slow, { rows: rows(2) });
      const b = await trigger(agents.slow, { rows: rows(2) });
      await sleep(300);
      expect((await getRun(agents.slow, a)).body.status).toBe("pending");
      expect(await expectRefused(agents.slow, a, "resume", "pending")).toEqual(["pause", "cancel"]);
      await expectRefused(agents.slow, a, "retry", "pending");
      await expectMoved(agents.slow, a, "pause", "paused", "ops-bot");
      await expectMoved(agents.slow, b, "cancel", "cancelled");
      const cancelled = (await getRun(agents.slow, b)).body;
      expect(cancelled.started_at).toBeNull();
      expect(cancelled.completed_at).not.toBeNull();
      expect(cancelled.events.map((e: any) => [e.action, e.from, e.to])).toEqual([
        ["trigger", null, "pending"],
        ["cancel", "pending", "cancelled"],
      ]);
      await expectMoved(agents.slow, a, "cancel", "cancelled");
      const paused = (await getRun(agents.slow, a)).body;
      expect(paused.events[1]).toMatchObject({
        action: "pause",
        from: "pending",
        to: "paused",
        actor: "runs key",
        triggered_by: "ops-bot",
      });
    } finally {
      for (const b of blockers) await control(agents.blocker, b, "cancel");
    }
    // cancel aborts the in-flight wait: the slots free at once
    for (const b of blockers) expect((await getRun(agents.blocker, b)).body.status).toBe("cancelled");
  });

  it("running: pause and cancel apply, resume answers the run unchanged and records nothing, retry is refused; paused: resume and cancel apply", async () => {
    // 400 items of 100 ms: the run is still running whatever the machine's speed when the controls come.
    const runId = await trigger(agents.slow, { rows: rows(400) });
    await waitFor(agents.slow, runId, (r) => r.status === "running" && r.item_counts.completed >= 2);
    expect(await expectRefused(agents.slow, runId, "retry", "running")).toEqual(["pause", "resume", "cancel"]);
    // docs/workflows.md (States and transitions) allows resume from running: 200 with the run still
    // running; the move changes nothing, so nothing is recorded (no "resume:running->running" below).
    const resumed = await control(agents.slow, runId, "resume");
    expect(resumed.status).toBe(200);
    expect(resumed.body.status).toBe("running");
    const pausedAt = (await expectMoved(agents.slow, runId, "pause", "paused", "support:alice")).item_counts.completed;
    // Once the pause is answered, at most the item then in flight may still be counted.
    await sleep(400);
    const settled = (await getRun(agents.slow, runId)).body.item_counts.completed;
    await sleep(400);
    const later = (await getRun(agents.slow, runId)).body.item_counts.completed;
    for (const n of [settled, later]) expect([pausedAt, pausedAt + 1]).toContain(n);
    expect(await expectRefused(agents.slow, runId, "pause", "paused")).toEqual(["resume", "cancel"]);
    await expectRefused(agents.slow, runId, "retry", "paused");
    await expectMoved(agents.slow, runId, "resume", "running");
    await waitFor(agents.slow, runId, (r) => r.item_counts.completed > later);
    const cancelledAt = (await expectMoved(agents.slow, runId, "cancel", "cancelled")).item_counts.completed;
    const run = (await getRun(agents.slow, runId)).body;
    for (const action of ["pause", "resume", "cancel", "retry"]) {
      expect(await expectRefused(agents.slow, runId, action, "cancelled")).toEqual([]);
    }
    const path = run.events.map((e: any) => `${e.action}:${e.from}->${e.to}`);
    expect(path).toEqual([
      "trigger:null->pending",
      "start:pending->running",
      "pause:running->paused",
      "resume:paused->running",
      "cancel:running->cancelled",
    ]);
    expect(run.events[2]).toMatchObject({ actor: "runs key", triggered_by: "support:alice" });
    expect(run.events[1]).toMatchObject({ actor: "system" });
    // no item is counted twice across pause/resume, and cancel stops the run
    await sleep(300);
    const final = (await getRun(agents.slow, runId)).body;
    expect(final.item_counts.completed).toBe(final.summary.successful);
    expect([cancelledAt, cancelledAt + 1]).toContain(final.item_counts.completed);
    expect(final.item_counts.completed).toBeLessThan(400);
  });

  it("needs_review: resume and cancel apply, pause and retry are refused; completed refuses everything", async () => {
    const runId = await trigger(agents.orders, {
      rows: [
        { qty: 5, price: 100 },
        { qty: 1, price: 1 },
      ],
      threshold: 10,
    });
    const run = await waitFor(agents.orders, runId, (r) => r.status === "needs_review");
    expect(run.item_counts).toEqual({ completed: 1, failed: 0, needs_review: 1, total: 2 });
    expect(run.completed_at).toBeNull();
    expect(await expectRefused(agents.orders, runId, "pause", "needs_review")).toEqual(["resume", "cancel"]);
    await expectRefused(agents.orders, runId, "retry", "needs_review");
    // resume with the item still waiting: the run goes round and is back in needs_review
    await expectMoved(agents.orders, runId, "resume", "running");
    await waitFor(agents.orders, runId, (r) => r.status === "needs_review");
    await expectMoved(agents.orders, runId, "cancel", "cancelled");

    const done = await trigger(agents.orders, { rows: [{ qty: 1, price: 1 }], threshold: 10 });
    await waitFor(agents.orders, done, (r) => r.status === "completed");
    for (const action of ["pause", "resume", "cancel", "retry"]) {
      expect(await expectRefused(agents.orders, done, action, "completed")).toEqual([]);
    }
  });

  it("failed: only retry applies; a fatal fail step fails the run with a readable error", async () => {
    const runId = await trigger(agents.fatal, { rows: rows(3) });
    const run = await waitFor(agents.fatal, runId, (r) => r.status === "failed");
    expect(run.error).toBe("Item 1: bad row");
    expect(run.item_counts).toEqual({ completed: 1, failed: 1, needs_review: 0, total: 3 });
    expect(run.completed_at).not.toBeNull();
    for (const action of ["pause", "resume", "cancel"]) {
      expect(await expectRefused(agents.fatal, runId, action, "failed")).toEqual(["retry"]);
    }
    const retried = await control(agents.fatal, runId, "retry", "?triggered_by=ci");
    expect(retried.status).toBe(200);
    expect(["pending", "running", "failed"]).toContain(retried.body.status);
    const again = await waitFor(agents.fatal, runId, (r) => r.status === "failed" && r.events.length >= 6);
    // the same step fails again on the same data; item 0 stays completed, item 2 never ran
    expect(again.item_counts).toEqual({ completed: 1, failed: 1, needs_review: 0, total: 3 });
    expect(again.events.map((e: any) => e.action)).toEqual(["trigger", "start", "fail", "retry", "start", "fail"]);
    expect(again.events[3]).toMatchObject({ from: "failed", to: "pending", triggered_by: "ci" });
  });

  it("retry re-runs a failed run from the failed step and keeps the completed items", async () => {
    upstream.requests.length = 0;
    let calls = 0;
    upstream.answer(() => (++calls === 3 ? { status: 500, json: {} } : { status: 200, json: { ok: calls } }));
    const runId = await trigger(agents.flaky, { rows: rows(5) });
    const failed = await waitFor(agents.flaky, runId, (r) => r.status === "failed");
    expect(failed.error).toBe('Item 2: Step "send" (http): the upstream returned an error');
    expect(failed.item_counts).toMatchObject({ completed: 2, failed: 1, total: 5 });
    expect((await control(agents.flaky, runId, "retry")).status).toBe(200);
    const done = await waitFor(agents.flaky, runId, (r) => r.status === "completed");
    expect(done.item_counts).toEqual({ completed: 5, failed: 0, needs_review: 0, total: 5 });
    expect(done.summary).toEqual({ total_processed: 5, successful: 5, failed: 0, exceptions: 1, skipped: 0 });
    expect(upstream.requests.map((r) => (r.body as { item: { n: number } }).item.n)).toEqual([0, 1, 2, 2, 3, 4]);
    const csv = await (await fetch(done.output_files[0].url)).text();
    expect(csv.trim().split("\n")).toHaveLength(6);
    expect(csv.split("\n")[0]).toBe("index,status,n,sent,error");
  });
});

describe("approvals", () => {
  it("lists waiting items, resolves each resolution, and resumes the run after the last one", async () => {
    const runId = await trigger(agents.orders, {
      rows: [
        { qty: 10, price: 10 },
        { qty: 20, price: 10 },
        { qty: 30, price: 10 },
        { qty: 1, price: 1 },
      ],
      threshold: 50,
    });
    await waitFor(agents.orders, runId, (r) => r.status === "needs_review");
    const list = await call("GET", `/api/agents/${agents.orders}/runs/${runId}/approvals`, { auth: key });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(3);
    expect(Object.keys(list.body[0]).sort()).toEqual(
      [
        "blocking",
        "data",
        "error",
        "exception_id",
        "item_id",
        "requires_human_review",
        "step_id",
        "resolution",
        "resolved_by",
        "resolved_at",
        "reason",
      ].sort(),
    );
    expect(list.body[0]).toMatchObject({
      step_id: "big",
      data: { qty: 10, price: 10, total: 100 },
      error: "large order",
      requires_human_review: true,
      blocking: true,
    });
    const resolve = (body: unknown) =>
      call("POST", `/api/agents/${agents.orders}/runs/${runId}/approvals/resolve`, { auth: key, body });
    const [a, b, c] = list.body.map((x: { exception_id: string }) => x.exception_id);

    expectError(await resolve({ exception_id: a, resolution: "maybe" }), 400, "invalid_resolution");
    expectError(await resolve({ exception_id: "exc_unknown", resolution: "approved" }), 404, "approval_not_found");

    const r1 = await resolve({ exception_id: a, resolution: "approved" });
    expect(r1.status).toBe(200);
    expect(r1.body).toEqual({
      exception_id: a,
      resolution: "approved",
      all_resolved: false,
      resumed: false,
      resolved_by: expect.stringMatching(/^key_/),
      resolved_at: expect.any(String),
      reason: null,
    });
    expectError(await resolve({ exception_id: a, resolution: "approved" }), 404, "approval_not_found");
    const r2 = await resolve({ exception_id: b, resolution: "rejected" });
    expect(r2.body).toMatchObject({ all_resolved: false, resumed: false });
    const mid = (await getRun(agents.orders, runId)).body;
    expect(mid.status).toBe("needs_review");
    expect(mid.item_counts).toEqual({ completed: 1, failed: 1, needs_review: 1, total: 4 });
    const r3 = await resolve({
      exception_id: c,
      resolution: "modified",
      modified_data: { qty: 3, price: 10, total: 30, note: "edited" },
    });
    expect(r3.body).toEqual({
      exception_id: c,
      resolution: "modified",
      all_resolved: true,
      resumed: true,
      resolved_by: expect.stringMatching(/^key_/),
      resolved_at: expect.any(String),
      reason: null,
    });

    const done = await waitFor(agents.orders, runId, (r) => r.status === "completed");
    expect(done.item_counts).toEqual({ completed: 3, failed: 1, needs_review: 0, total: 4 });
    expect(done.summary).toEqual({ total_processed: 4, successful: 3, failed: 1, exceptions: 0, skipped: 0 });
    expect(done.events.map((e: any) => `${e.action}:${e.from}->${e.to}`).slice(-3)).toEqual([
      "finish:running->needs_review",
      "resume:needs_review->running",
      "finish:running->completed",
    ]);
    const lines = (await (await fetch(done.output_files[0].url)).text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.status)).toEqual(["completed", "failed", "completed", "completed"]);
    expect(lines[2].result).toMatchObject({ note: "edited", total: 30 });
    expect((await call("GET", `/api/agents/${agents.orders}/runs/${runId}/approvals`, { auth: key })).body).toEqual([]);
  });
});
