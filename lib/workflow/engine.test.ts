import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "../db";
import { resetEnvCache } from "../env";
import { resetSigningKeyCache, verifyDownload } from "../files/signing";
import { stopQueue } from "../queue";
import { listApprovals, resolveApproval } from "../runs/approvals";
import { runListItem } from "../runs/record";
import { createEvaluatorPool } from "../expressions/pool";
import { controlRun, listRunItems, recordOf } from "../runs/service";
import { startBarrier, startFakeUpstream, type FakeUpstream } from "../../test-support/runtime";
import { storage } from "../storage";
import { openTestDatabase } from "../../test-support/db";
import { text } from "node:stream/consumers";
import { WorkflowDefinition } from "./schema";
import { runEngine } from "./engine";
import { drive, startRun, workflowAgent } from "../../test-support/workflow";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let upstream: FakeUpstream;
beforeAll(async () => {
  process.env.SIGNING_SECRET = "engine-unit-test-signing-secret";
  // Fake upstreams listen on 127.0.0.1, a loopback address the upstream guard refuses by default.
  process.env.ALLOW_PRIVATE_UPSTREAMS = "true";
  resetEnvCache();
  resetSigningKeyCache();
  db = await openTestDatabase();
  upstream = await startFakeUpstream();
});
afterAll(async () => {
  await upstream.close();
  await stopQueue();
  await db.dispose();
});

const actor = { type: "access_key" as const, id: "key_unit", label: "unit key" };
const ctl = (
  agent: Parameters<typeof controlRun>[0]["agent"],
  runId: string,
  action: "pause" | "resume" | "cancel" | "retry",
) => controlRun({ agent, runId, action, actor, baseUrl: "http://localhost:3000" });

/** Resolves an approval `modified`, with `modifiedData` as the item. */
const modify = (agent: Parameters<typeof ctl>[0], runId: string, exceptionId: string, modifiedData: unknown) =>
  resolveApproval({
    agent,
    runId,
    actor,
    baseUrl: "http://localhost:3000",
    exceptionId,
    resolution: "modified",
    modifiedData,
  });

const ORDERS = {
  inputs: { rows: { type: "array", required: true }, threshold: { type: "number" } },
  items: { from: "rows" },
  steps: [
    { id: "total", type: "transform", expression: "$merge([item, {'total': item.qty * item.price}])" },
    { id: "skip_zero", type: "skip", when: "item.qty = 0" },
    { id: "reject", type: "fail", when: "item.total < 0", message: "negative total" },
    { id: "big", type: "review", when: "item.total > inputs.threshold" },
    { id: "tag", type: "transform", expression: "$merge([item, {'checked': true}])" },
  ],
  output: { filename: "orders.jsonl", format: "jsonl" },
};

describe("workflow engine", () => {
  it("gives every item one outcome and keeps summary, item_counts and progress exact", async () => {
    const { agent, key } = await workflowAgent(ORDERS);
    const rows = [
      { qty: 1, price: 2 },
      { qty: 0, price: 5 },
      { qty: -1, price: 3 },
      { qty: 10, price: 100 },
      { qty: 2, price: 2 },
    ];
    const runId = await startRun(agent, key, { rows, threshold: 500 });
    const run = await drive(runId);
    const rec = runListItem(run);
    expect(rec.status).toBe("needs_review");
    expect(rec.summary).toEqual({ total_processed: 5, successful: 2, failed: 1, exceptions: 0, skipped: 1 });
    expect(rec.item_counts).toEqual({ completed: 3, failed: 1, needs_review: 1, total: 5 });
    expect(rec.progress_percent).toBe(80);
    expect(rec.started_at).not.toBeNull();
    expect(rec.completed_at).toBeNull();
    const items = await (await prisma()).runItem.findMany({ where: { runId }, orderBy: { index: "asc" } });
    expect(items.map((i) => i.status)).toEqual(["completed", "skipped", "failed", "needs_review", "completed"]);
    expect(items[0]!.result).toEqual({ qty: 1, price: 2, total: 2, checked: true });
    expect(items[2]!.error).toBe("negative total");

    // Each item's step timeline: which steps applied, which conditions were false, where it stopped.
    const page = await listRunItems({ organizationId: agent.organizationId, runId, limit: 10 });
    const way = page.items.map((i) => i.timeline.map((e) => `${e.step_id}:${e.outcome}`));
    expect(way).toEqual([
      ["total:completed", "skip_zero:not_applied", "reject:not_applied", "big:not_applied", "tag:completed"],
      ["total:completed", "skip_zero:skipped"],
      ["total:completed", "skip_zero:not_applied", "reject:failed"],
      ["total:completed", "skip_zero:not_applied", "reject:not_applied", "big:needs_review"],
      ["total:completed", "skip_zero:not_applied", "reject:not_applied", "big:not_applied", "tag:completed"],
    ]);
    const rejected = page.items[2]!.timeline[2]!;
    expect(rejected).toMatchObject({ type: "fail", attempt: 1, duration_ms: null, error: "negative total" });
    expect(Date.parse(rejected.started_at)).toBeGreaterThanOrEqual(Date.parse(rec.started_at!));
  });

  it("continues approved and modified items after review and ends rejected ones failed, then resumes by itself", async () => {
    const { agent, key } = await workflowAgent(ORDERS);
    const rows = [
      { qty: 10, price: 100 },
      { qty: 20, price: 100 },
      { qty: 30, price: 100 },
    ];
    const runId = await startRun(agent, key, { rows, threshold: 500 });
    expect((await drive(runId)).status).toBe("needs_review");
    const approvals = await listApprovals({ agent, runId });
    expect(approvals).toHaveLength(3);
    expect(approvals[0]).toMatchObject({ step_id: "big", requires_human_review: true, blocking: true });
    expect(approvals[0]!.data).toEqual({ qty: 10, price: 100, total: 1000 });

    const base = { agent, runId, actor, baseUrl: "http://localhost:3000" };
    const a = await resolveApproval({ ...base, exceptionId: approvals[0]!.exception_id, resolution: "approved" });
    expect(a).toMatchObject({ resolution: "approved", all_resolved: false, resumed: false });
    await resolveApproval({ ...base, exceptionId: approvals[1]!.exception_id, resolution: "rejected" });
    const last = await resolveApproval({
      ...base,
      exceptionId: approvals[2]!.exception_id,
      resolution: "modified",
      modifiedData: { qty: 3, price: 1, total: 3, note: "fixed" },
    });
    expect(last).toMatchObject({ all_resolved: true, resumed: true });
    const mid = runListItem(await db.prisma.run.findUniqueOrThrow({ where: { id: runId } }));
    expect(mid.status).toBe("running");
    expect(mid.item_counts).toEqual({ completed: 0, failed: 1, needs_review: 0, total: 3 });

    const run = runListItem(await drive(runId));
    expect(run.status).toBe("completed");
    expect(run.item_counts).toEqual({ completed: 2, failed: 1, needs_review: 0, total: 3 });
    expect(run.summary).toEqual({ total_processed: 3, successful: 2, failed: 1, exceptions: 0, skipped: 0 });
    expect(run.progress_percent).toBe(100);
    const items = await db.prisma.runItem.findMany({ where: { runId }, orderBy: { index: "asc" } });
    expect(items[0]!.result).toEqual({ qty: 10, price: 100, total: 1000, checked: true });
    expect(items[2]!.result).toEqual({ qty: 3, price: 1, total: 3, note: "fixed", checked: true });
    await expect(
      resolveApproval({ ...base, exceptionId: approvals[0]!.exception_id, resolution: "approved" }),
    ).rejects.toMatchObject({ code: "invalid_state_transition" });
  });

  it("puts an unexpected step error up for review and counts it as an exception", async () => {
    upstream.answer(() => ({ status: 500, json: { secret: "upstream words" } }));
    const { agent, key } = await workflowAgent({
      inputs: { rows: { type: "array" } },
      items: { from: "rows" },
      steps: [{ id: "enrich", type: "http", url: `${upstream.url}/enrich`, timeout_ms: 2000 }],
    });
    const runId = await startRun(agent, key, { rows: [{ a: 1 }] });
    const run = runListItem(await drive(runId));
    expect(run.status).toBe("needs_review");
    expect(run.summary.exceptions).toBe(1);
    const [approval] = await listApprovals({ agent, runId });
    expect(approval!.error).toBe('Step "enrich" (http): the upstream returned an error');
    expect(approval!.error).not.toContain("upstream words");

    upstream.answer(() => ({ status: 200, json: { score: 7 } }));
    const resolved = await resolveApproval({
      agent,
      runId,
      actor,
      baseUrl: "http://localhost:3000",
      exceptionId: approval!.exception_id,
      resolution: "approved",
    });
    expect(resolved.resumed).toBe(true);
    const done = runListItem(await drive(runId));
    expect(done.status).toBe("completed");
    expect(done.summary).toMatchObject({ successful: 1, exceptions: 1 });
    const item = await db.prisma.runItem.findFirstOrThrow({ where: { runId } });
    expect(item.result).toEqual({ a: 1, enrich: { score: 7 } });
  });

  it("continues an item whose first step failed with the modified_data a person gave it", async () => {
    upstream.answer(() => ({ status: 500, json: {} }));
    const { agent, key } = await workflowAgent({
      inputs: { rows: { type: "array" } },
      items: { from: "rows" },
      steps: [
        { id: "enrich", type: "http", url: `${upstream.url}/enrich`, timeout_ms: 2000 },
        { id: "tag", type: "transform", expression: "$merge([item, {'tagged': true}])" },
      ],
    });
    const runId = await startRun(agent, key, { rows: [{ a: 1 }] });
    expect((await drive(runId)).status).toBe("needs_review");
    const [approval] = await listApprovals({ agent, runId });
    upstream.answer(() => ({ status: 200, json: { score: 7 } }));
    await modify(agent, runId, approval!.exception_id, { a: 2 });
    expect((await drive(runId)).status).toBe("completed");
    const item = await db.prisma.runItem.findFirstOrThrow({ where: { runId } });
    expect(item.result).toEqual({ a: 2, enrich: { score: 7 }, tagged: true });
  });

  it("retries a failed run from the failed step and keeps the items already completed", async () => {
    let calls = 0;
    upstream.requests.length = 0;
    upstream.answer(() => (++calls === 3 ? { status: 503, json: {} } : { status: 200, json: { ok: true } }));
    const { agent, key } = await workflowAgent({
      inputs: { rows: { type: "array" } },
      items: { from: "rows" },
      steps: [
        { id: "prep", type: "transform", expression: "$merge([item, {'prepped': true}])" },
        { id: "send", type: "http", url: `${upstream.url}/send`, on_error: "fail_run", into: "sent" },
      ],
      output: { filename: "out.csv", format: "csv" },
    });
    const runId = await startRun(agent, key, { rows: [{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }] });
    const failed = runListItem(await drive(runId));
    expect(failed.status).toBe("failed");
    expect(failed.error).toBe('Item 2: Step "send" (http): the upstream returned an error');
    expect(failed.item_counts).toEqual({ completed: 2, failed: 1, needs_review: 0, total: 4 });
    expect(failed.completed_at).not.toBeNull();

    await expect(ctl(agent, runId, "resume")).rejects.toMatchObject({
      code: "invalid_state_transition",
      details: { current_status: "failed", allowed_actions: ["retry"] },
    });
    const retried = await ctl(agent, runId, "retry");
    expect(retried.status).toBe("pending");
    expect(retried.error).toBeNull();
    const done = runListItem(await drive(runId));
    expect(done.status).toBe("completed");
    expect(done.item_counts).toEqual({ completed: 4, failed: 0, needs_review: 0, total: 4 });
    // items 0 and 1 were not sent again: 3 calls before the retry (the third failed), 2 after
    const sent = upstream.requests.map((r) => (r.body as { item: { n: number } }).item.n);
    expect(sent).toEqual([0, 1, 2, 2, 3]);
    const rec = await recordOf(runId, "http://localhost:3000");
    expect(rec.output_files).toHaveLength(1);
    expect(rec.output_files[0]).toMatchObject({ filename: "out.csv", content_type: "text/csv" });
    // The signed URL is good now and refused once its 15 minutes are over.
    const out = rec.output_files[0]!;
    const token = new URL(out.url).searchParams.get("token")!;
    expect(verifyDownload(token).storageKey).toMatch(new RegExp(`^runs/${runId}/`));
    expect(() => verifyDownload(token, Date.parse(out.url_expires_at))).toThrow(
      expect.objectContaining({ code: "url_expired" }),
    );
    // The failed item's timeline: the call that failed on attempt 1, sent again on attempt 2.
    const page = await listRunItems({ organizationId: agent.organizationId, runId, limit: 10 });
    expect(page.items[2]!.timeline.map((e) => [e.step_id, e.attempt, e.outcome, e.error])).toEqual([
      ["prep", 1, "completed", null],
      ["send", 1, "failed", 'Step "send" (http): the upstream returned an error'],
      ["send", 2, "completed", null],
    ]);
    expect(page.items[0]!.timeline.map((e) => [e.step_id, e.attempt, e.outcome])).toEqual([
      ["prep", 1, "completed"],
      ["send", 1, "completed"],
    ]);
    const call = page.items[0]!.timeline[1]!;
    expect(call.type).toBe("http");
    expect(call.duration_ms).toEqual(expect.any(Number));
    expect(Date.parse(call.started_at)).toBeGreaterThanOrEqual(Date.parse(page.items[0]!.timeline[0]!.started_at));
    expect(rec.events.map((e) => `${e.action}:${e.from}->${e.to}`)).toEqual([
      "trigger:null->pending",
      "start:pending->running",
      "fail:running->failed",
      "retry:failed->pending",
      "start:pending->running",
      "finish:running->completed",
    ]);
  });

  it("fails the run with a readable error when the input file cannot be read", async () => {
    const { agent, key } = await workflowAgent({
      inputs: { rows: { type: "array" } },
      items: { from: "rows" },
      steps: [{ id: "t", type: "transform", expression: "item" }],
    });
    const runId = await startRun(agent, key, { rows: [1] });
    await db.prisma.run.update({ where: { id: runId }, data: { inputs: { rows: "not an array" } } });
    const run = runListItem(await drive(runId));
    expect(run.status).toBe("failed");
    expect(run.error).toBe('Input "rows" is not an array.');
  });

  it("stops at the item boundary when paused and continues with the first unfinished item on resume", async () => {
    const barrier = await startBarrier();
    try {
      const { agent, key } = await workflowAgent({
        inputs: { rows: { type: "array" } },
        items: { from: "rows" },
        steps: [
          { id: "gate", type: "http", url: barrier.url, when: "item.hold", timeout_ms: 60_000 },
          { id: "pace", type: "wait", ms: 5 },
        ],
      });
      const rows = Array.from({ length: 30 }, (_, n) => ({ n, hold: n === 3 }));
      const runId = await startRun(agent, key, { rows });
      const engine = drive(runId);
      await barrier.arrived(); // items 0-2 are done, item 3 is in flight
      const answer = await ctl(agent, runId, "pause");
      expect(answer.status).toBe("paused");
      barrier.release();
      const paused = await engine;
      // After the pause was answered only the item in flight finished.
      expect(paused.status).toBe("paused");
      expect(paused.itemsCompleted).toBe(4);
      await expect(ctl(agent, runId, "pause")).rejects.toMatchObject({ code: "invalid_state_transition" });
      expect((await ctl(agent, runId, "resume")).status).toBe("running");
      const done = await drive(runId);
      expect(done.status).toBe("completed");
      expect(done.itemsCompleted).toBe(30);
      expect(await db.prisma.runItem.count({ where: { runId, status: "completed" } })).toBe(30);
    } finally {
      await barrier.close();
    }
  });

  it("hands the run over when its worker stops: the items in flight finish, none starts, each call is made once", async () => {
    // Holds the calls of items 2 and 3 until released; records every call's Idempotency-Key.
    const keys: string[] = [];
    let held: (() => void)[] = [];
    let arrived: () => void = () => {};
    const twoHeld = new Promise<void>((resolve) => (arrived = resolve));
    const server = http.createServer((req, res) => {
      keys.push(String(req.headers["idempotency-key"]));
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const { item } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { item: { hold: boolean } };
        const answer = () => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
        if (!item.hold) return answer();
        held.push(answer);
        if (held.length === 2) arrived();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/step`;
      const { agent, key } = await workflowAgent({
        inputs: { rows: { type: "array" } },
        items: { from: "rows" },
        concurrency: 2,
        steps: [{ id: "call", type: "http", url, timeout_ms: 60_000 }],
      });
      const rows = Array.from({ length: 8 }, (_, n) => ({ n, hold: n === 2 || n === 3 }));
      const runId = await startRun(agent, key, { rows });
      const run = await db.prisma.run.findUniqueOrThrow({ where: { id: runId } });
      const runJobsQueued = async (id: string) =>
        Number(
          (
            await db.prisma.$queryRaw<{ n: bigint }[]>`
              SELECT count(*) AS n FROM pgboss.job WHERE name = 'run' AND data->>'runId' = ${id} AND state = 'created'`
          )[0]!.n,
        );
      const queuedBefore = await runJobsQueued(runId); // startRun's own job (no worker runs in this file)
      const stopping = new AbortController();
      const pass = runEngine({ runId, epoch: run.epoch, baseUrl: "http://localhost:3000", stopping: stopping.signal });
      await twoHeld; // items 0 and 1 are done, 2 and 3 are in flight
      stopping.abort(); // the worker begins to stop
      for (const answer of held) answer();
      held = [];
      await pass;
      const handedOver = await db.prisma.run.findUniqueOrThrow({ where: { id: runId } });
      expect([handedOver.status, handedOver.itemsCompleted]).toEqual(["running", 4]);
      expect(keys.length).toBe(4); // nothing started after the stop
      expect(await runJobsQueued(runId)).toBe(queuedBefore + 1); // the run waits in the queue for the next worker
      const done = await drive(runId);
      expect([done.status, done.itemsCompleted]).toEqual(["completed", 8]);
      // One call per item, each under its own stable key (run, item, step).
      expect(keys.sort()).toEqual(rows.map((r) => `${runId}/${r.n}/call`).sort());
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("runs up to `concurrency` items at once and keeps item order in the output and exact counts", async () => {
    // Answers nothing until `group` requests are waiting together, then all of them: a run that
    // processed fewer items at once would never be answered (its steps time out and the items fail).
    const group = 3;
    let waiting: { res: http.ServerResponse; n: number }[] = [];
    let mostAtOnce = 0;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const { item } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { item: { n: number } };
        waiting.push({ res, n: item.n });
        mostAtOnce = Math.max(mostAtOnce, waiting.length);
        if (waiting.length < group) return;
        for (const w of waiting)
          w.res.writeHead(200, { "content-type": "application/json" }).end(`{"double":${w.n * 2}}`);
        waiting = [];
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pair`;
      const { agent, key } = await workflowAgent({
        inputs: { rows: { type: "array" } },
        items: { from: "rows" },
        concurrency: group,
        steps: [{ id: "call", type: "http", url, timeout_ms: 60_000, into: "answer" }],
        output: { filename: "out.jsonl", format: "jsonl" },
      });
      const rows = Array.from({ length: 12 }, (_, n) => ({ n }));
      const runId = await startRun(agent, key, { rows });
      const done = await drive(runId);
      expect(done.status).toBe("completed");
      expect(done.itemsCompleted).toBe(12);
      expect(done.totalProcessed).toBe(12);
      expect(done.successful).toBe(12);
      expect(mostAtOnce).toBe(group);
      const items = await db.prisma.runItem.findMany({ where: { runId }, orderBy: { index: "asc" } });
      expect(items.map((i) => (i.result as { answer: { double: number } }).answer.double)).toEqual(
        rows.map((r) => r.n * 2),
      );
      const rec = await recordOf(runId, "http://localhost:3000");
      const token = new URL(rec.output_files[0]!.url).searchParams.get("token")!;
      const lines = (await text(storage().read(verifyDownload(token).storageKey))).trim().split("\n");
      const written = lines.map((l) => JSON.parse(l) as { index: number; result: { n: number; answer: unknown } });
      expect(written.map((w) => [w.index, w.result.n, w.result.answer])).toEqual(
        rows.map((r) => [r.n, r.n, { double: r.n * 2 }]),
      );
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("accepts concurrency from 1 to 32 and names the field otherwise", () => {
    const base = { steps: [{ id: "t", type: "transform", expression: "item" }] };
    expect(WorkflowDefinition.safeParse({ ...base, concurrency: 32 }).success).toBe(true);
    for (const bad of [0, 33, 1.5]) {
      const r = WorkflowDefinition.safeParse({ ...base, concurrency: bad });
      expect(r.success).toBe(false);
      expect(r.error!.issues[0]!.path).toEqual(["concurrency"]);
    }
  });
});

describe("file links handed to steps", () => {
  it("signs a file input's link again during a long pass: a later item never gets the pass's first link", async () => {
    const { agent, key } = await workflowAgent({
      inputs: { rows: { type: "array", required: true }, doc: { type: "file", required: true } },
      items: { from: "rows" },
      steps: [{ id: "send", type: "http", url: `${upstream.url}/links` }],
    });
    const fileId = `fi_${"cd".repeat(16)}`;
    await db.prisma.file.create({
      data: {
        id: fileId,
        organizationId: agent.organizationId,
        agentId: agent.id,
        filename: "doc.txt",
        contentType: "text/plain",
        sizeBytes: 3,
        storageKey: `${agent.organizationId}/${agent.id}/${fileId}`,
      },
    });
    const runId = await startRun(agent, key, { rows: [{ n: 0 }, { n: 1 }, { n: 2 }], doc: { file_id: fileId } });
    // The clock as the code reads it: item 1's call "lasts" six minutes.
    const realNow = Date.now.bind(Date);
    let offset = 0;
    const clock = vi.spyOn(Date, "now").mockImplementation(() => realNow() + offset);
    upstream.requests.length = 0;
    upstream.answer((req) => {
      if ((req.body as { item: { n: number } }).item.n === 1) offset = 6 * 60_000;
      return { status: 200, json: {} };
    });
    try {
      expect((await drive(runId)).status).toBe("completed");
      type Link = { file_id: string; url: string; url_expires_at: string };
      const links = upstream.requests.map((r) => (r.body as { inputs: { doc: Link } }).inputs.doc);
      expect(links.map((l) => l.file_id)).toEqual([fileId, fileId, fileId]);
      // Within five minutes of signing, items share the link; after, the next item gets a new one.
      expect(links[1]).toEqual(links[0]);
      expect(Date.parse(links[2]!.url_expires_at) - Date.parse(links[1]!.url_expires_at)).toBeGreaterThanOrEqual(
        6 * 60_000 - 1_000,
      );
      const token = new URL(links[2]!.url).searchParams.get("token")!;
      expect(verifyDownload(token).storageKey).toBe(`${agent.organizationId}/${agent.id}/${fileId}`);
      // The first link has expired by the time the third item runs; the third is good for 15 minutes.
      const firstToken = new URL(links[0]!.url).searchParams.get("token")!;
      expect(() => verifyDownload(firstToken, Date.now() + 10 * 60_000)).toThrow(
        expect.objectContaining({ code: "url_expired" }),
      );
      expect(verifyDownload(token, Date.now() + 10 * 60_000).storageKey).toMatch(/^org_/);
    } finally {
      clock.mockRestore();
      upstream.answer(() => ({ status: 200, json: {} }));
    }
  });
});

describe("expression bounds in a run", () => {
  const pool = createEvaluatorPool({ processes: 2, timeoutMs: 200, memoryMb: 64, maxResultChars: 100_000 });
  afterAll(() => pool.close());

  it("fails only the item whose expression overruns; fixed in review, it starts again where its evaluation began", async () => {
    const { agent, key } = await workflowAgent({
      inputs: { rows: { type: "array", required: true } },
      items: { from: "rows" },
      steps: [
        { id: "mark", type: "transform", expression: "$merge([item, {'seen': true}])" },
        {
          id: "check",
          type: "transform",
          // Backtracks for ages: only killing its evaluator process stops it.
          expression: 'item.bad ? $match("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", /(a+)+$/) : item',
        },
      ],
    });
    const runId = await startRun(agent, key, { rows: [{ n: 0 }, { n: 1, bad: true }, { n: 2 }] });
    const run = runListItem(await drive(runId, undefined, pool));
    expect(run.status).toBe("needs_review");
    expect(run.item_counts).toEqual({ completed: 2, failed: 0, needs_review: 1, total: 3 });
    expect(run.summary).toMatchObject({ total_processed: 3, successful: 2, exceptions: 1 });
    const [approval] = await listApprovals({ agent, runId });
    expect(approval).toMatchObject({
      step_id: "check",
      // As it entered the evaluation that died: before "mark".
      data: { n: 1, bad: true },
      error: 'Step "check" (transform): expression_timeout: the expression did not finish within 200 ms',
    });

    await modify(agent, runId, approval!.exception_id, { n: 1 });
    const done = runListItem(await drive(runId, undefined, pool));
    expect(done.status).toBe("completed");
    expect(done.item_counts).toEqual({ completed: 3, failed: 0, needs_review: 0, total: 3 });
    const items = await db.prisma.runItem.findMany({ where: { runId }, orderBy: { index: "asc" } });
    expect(items.map((i) => i.result)).toEqual([
      { n: 0, seen: true },
      { n: 1, seen: true },
      { n: 2, seen: true },
    ]);
  });
});
