// Bulk actions and reruns through the console API (docs/api.md, Bulk actions; docs/console.md, Runs):
// the dry run's counts and reasons on a mix of states, the background job moving only the allowed
// runs once each with audit rows naming it, roles (support on runs, admins on keys), ids of another
// organization untouched, and "run again" validated as a trigger and linked both ways.
import { beforeAll, describe, expect, it } from "vitest";
import { orgPath, signIn, type ConsoleSession } from "./console";
import { call, createAgent, ctx, expectError, mintKey } from "./helpers";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rowsInput = { rows: { type: "array", required: true } };
const wf = (name: string, steps: unknown[], more: Record<string, unknown> = {}) => ({
  name,
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: { inputs: rowsInput, items: { from: "rows" }, steps, ...more },
});

let admin: ConsoleSession;
let support: ConsoleSession;
let key: string;
let keyB: string;
const agents = { hold: "", fatal: "", flow: "", holdB: "" };

async function startRun(agent: string, body: unknown, auth = key) {
  const res = await call("POST", `/api/agents/webhook/${agent}`, { auth, body });
  expect(res.status, res.text).toBe(202);
  return res.body.run_id as string;
}

async function runUntil(agent: string, runId: string, status: string, auth = key) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await call("GET", `/api/agents/${agent}/runs/${runId}`, { auth });
    if (res.body.status === status) return res.body;
    if (Date.now() > deadline) throw new Error(`run ${runId} stayed ${res.body.status}`);
    await sleep(50);
  }
}

async function bulkUntilDone(session: ConsoleSession, id: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await session.call("GET", orgPath(`/bulk-actions/${id}`));
    expect(res.status, res.text).toBe(200);
    if (res.body.status === "completed" || res.body.status === "failed") return res.body;
    if (Date.now() > deadline) throw new Error(`bulk action ${id} stayed ${res.body.status}`);
    await sleep(100);
  }
}

beforeAll(async () => {
  const { orgA, orgB } = ctx();
  admin = await signIn("admin-a@example.com");
  support = await signIn("support-a@example.com");
  key = (await mintKey(orgA, ["agents:invoke"], "bulk key")).key;
  keyB = (await mintKey(orgB, ["agents:invoke"], "bulk key B")).key;
  const hold = wf("bulk hold", [{ id: "h", type: "wait", ms: 120_000 }], { inputs: {}, items: undefined });
  agents.hold = (await createAgent(orgA, hold)).agent_id;
  agents.holdB = (await createAgent(orgB, hold)).agent_id;
  agents.fatal = (
    await createAgent(orgA, wf("bulk fatal", [{ id: "b", type: "fail", when: "true", fatal: true, message: "bad" }]))
  ).agent_id;
  agents.flow = (
    await createAgent(orgA, wf("bulk flow", [{ id: "t", type: "transform", expression: "item" }]))
  ).agent_id;
});

describe("bulk actions on runs", () => {
  it("dry run and job: only the allowed runs move, once each, audited with the bulk action; another organization's ids are not found and untouched", async () => {
    const held = [await startRun(agents.hold, {}), await startRun(agents.hold, {}), await startRun(agents.hold, {})];
    for (const id of held) await runUntil(agents.hold, id, "running");
    const failed = await startRun(agents.fatal, { rows: [{ n: 1 }] });
    await runUntil(agents.fatal, failed, "failed");
    const completed = await startRun(agents.flow, { rows: [{ n: 1 }] });
    await runUntil(agents.flow, completed, "completed");
    const foreign = await startRun(agents.holdB, {}, keyB);
    await runUntil(agents.holdB, foreign, "running", keyB);

    const selection = { run_ids: [...held, failed, completed, foreign] };
    const preview = await support.call("POST", orgPath("/bulk-actions/preview"), { action: "cancel", selection });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body).toMatchObject({ action: "cancel", target_type: "run", matched: 5, allowed: 3 });
    expect(preview.body.not_allowed).toEqual([
      { reason: "not_found", status: null, count: 1 },
      { reason: "status", status: "completed", count: 1 },
      { reason: "status", status: "failed", count: 1 },
    ]);
    expect(preview.body.sample.map((s: { id: string }) => s.id).sort()).toEqual([...held].sort());

    const started = await support.call("POST", orgPath("/bulk-actions"), {
      action: "cancel",
      selection,
      expected_count: 3,
    });
    expect(started.status, started.text).toBe(202);
    expect(started.body).toMatchObject({ status: "pending", matched: 5, allowed: 3, total: 6 });
    const done = await bulkUntilDone(support, started.body.bulk_action_id);
    expect(done).toMatchObject({ status: "completed", processed: 6, counts: { done: 3, skipped: 3, failed: 0 } });
    expect(done.started_by.label).toBe("support-a@example.com");

    for (const id of held) {
      const run = await admin.call("GET", orgPath(`/runs/${id}`));
      expect(run.body.status).toBe("cancelled");
      expect(run.body.events.filter((e: { action: string }) => e.action === "cancel")).toHaveLength(1);
    }
    const audit = await admin.call("GET", orgPath("/audit?action=run.cancel&limit=100"));
    const rows = audit.body.events.filter((e: { target: { id: string } }) => held.includes(e.target.id));
    expect(rows).toHaveLength(3);
    for (const e of rows) expect(e.data.bulk_action_id).toBe(started.body.bulk_action_id);
    const final = await admin.call("GET", orgPath("/audit?action=bulk_action.completed&limit=100"));
    expect(
      final.body.events.filter((e: { target: { id: string } }) => e.target.id === started.body.bulk_action_id),
    ).toHaveLength(1);

    expect((await runUntil(agents.holdB, foreign, "running", keyB)).status).toBe("running");
    expect((await admin.call("GET", orgPath(`/runs/${failed}`))).body.status).toBe("failed");

    const list = await support.call("GET", orgPath("/bulk-actions?limit=5"));
    expect(list.status).toBe(200);
    expect(list.body.bulk_actions.map((b: { bulk_action_id: string }) => b.bulk_action_id)).toContain(
      started.body.bulk_action_id,
    );
  });

  it("a selection by filter is frozen at the start: a run created afterwards is not paused", async () => {
    const before = await startRun(agents.hold, {});
    await runUntil(agents.hold, before, "running");
    const started = await admin.call("POST", orgPath("/bulk-actions"), {
      action: "pause",
      selection: { filter: { agent_id: agents.hold, status: "running" } },
    });
    expect(started.status, started.text).toBe(202);
    const after = await startRun(agents.hold, {});
    await runUntil(agents.hold, after, "running");
    const done = await bulkUntilDone(admin, started.body.bulk_action_id);
    expect(done.status).toBe("completed");
    expect((await admin.call("GET", orgPath(`/runs/${before}`))).body.status).toBe("paused");
    expect((await admin.call("GET", orgPath(`/runs/${after}`))).body.status).toBe("running");
    await admin.call("POST", orgPath(`/runs/${after}/cancel`));
  });

  it("refuses a bad selection as 400 and a changed count as 409", async () => {
    const tooMany = Array.from({ length: 1001 }, (_, i) => `run_${i}`);
    const big = await admin.call("POST", orgPath("/bulk-actions/preview"), {
      action: "cancel",
      selection: { run_ids: tooMany },
    });
    expectError(big, 400, "invalid_request");
    expectError(
      await admin.call("POST", orgPath("/bulk-actions/preview"), {
        action: "cancel",
        selection: { key_ids: ["key_x"] },
      }),
      400,
      "invalid_request",
    );
    expectError(
      await admin.call("POST", orgPath("/bulk-actions/preview"), {
        action: "cancel",
        selection: { filter: { status: "nope" } },
      }),
      400,
      "invalid_request", // as the runs list answers an unknown status
    );
    expectError(
      await admin.call("POST", orgPath("/bulk-actions/preview"), {
        action: "cancel",
        selection: { filter: { colour: "red" } },
      }),
      400,
      "invalid_request",
    );
    expectError(
      await admin.call("POST", orgPath("/bulk-actions"), {
        action: "retry",
        selection: { run_ids: ["run_none"] },
        expected_count: 4,
      }),
      409,
      "selection_changed",
    );
    expectError(await admin.call("GET", orgPath("/bulk-actions/bulk_nothing")), 404, "bulk_action_not_found");
  });
});

describe("bulk revoke of Access Keys", () => {
  it("support gets 403; an admin revokes the selected keys, each audited with the bulk action", async () => {
    const { orgA } = ctx();
    const keys = [
      (await mintKey(orgA, ["agents:invoke"], "bulk-r1")).key_id,
      (await mintKey(orgA, ["agents:invoke"], "bulk-r2")).key_id,
    ];
    const body = { action: "revoke", selection: { key_ids: keys } };
    expectError(await support.call("POST", orgPath("/bulk-actions/preview"), body), 403, "forbidden");
    expectError(await support.call("POST", orgPath("/bulk-actions"), body), 403, "forbidden");

    const preview = await admin.call("POST", orgPath("/bulk-actions/preview"), body);
    expect(preview.body).toMatchObject({ target_type: "access_key", matched: 2, allowed: 2, not_allowed: [] });
    const started = await admin.call("POST", orgPath("/bulk-actions"), { ...body, expected_count: 2 });
    expect(started.status, started.text).toBe(202);
    const done = await bulkUntilDone(admin, started.body.bulk_action_id);
    expect(done.counts).toEqual({ done: 2, skipped: 0, failed: 0 });
    const listed = await admin.call("GET", `/api/v1/organizations/${ctx().orgA.organization_id}/access-keys?limit=500`);
    for (const id of keys) {
      expect(listed.body.access_keys.find((k: { key_id: string }) => k.key_id === id).revoked_at).not.toBeNull();
    }
    const audit = await admin.call("GET", orgPath("/audit?action=access_key.revoked&limit=100"));
    const rows = audit.body.events.filter((e: { target: { id: string } }) => keys.includes(e.target.id));
    expect(rows).toHaveLength(2);
    for (const e of rows) expect(e.data.bulk_action_id).toBe(started.body.bulk_action_id);
  });
});

describe("run again with edited inputs", () => {
  it("validates the inputs as a trigger does, refuses a run still going, and links the rerun both ways", async () => {
    const original = await startRun(agents.flow, { rows: [{ n: 1 }] });
    await runUntil(agents.flow, original, "completed");

    const trigger = await call("POST", `/api/agents/webhook/${agents.flow}`, { auth: key, body: { rows: "no" } });
    const bad = await support.call("POST", orgPath(`/runs/${original}/rerun`), { inputs: { rows: "no" } });
    expectError(bad, 400, trigger.body.error.code);
    expect(bad.body.error.details.fields).toEqual(trigger.body.error.details.fields);
    expectError(await support.call("POST", orgPath(`/runs/${original}/rerun`), { inputs: {} }), 400, "invalid_request");

    const running = await startRun(agents.hold, {});
    await runUntil(agents.hold, running, "running");
    expectError(
      await support.call("POST", orgPath(`/runs/${running}/rerun`), { inputs: {} }),
      409,
      "invalid_state_transition",
    );
    await admin.call("POST", orgPath(`/runs/${running}/cancel`));

    const rerun = await support.call("POST", orgPath(`/runs/${original}/rerun`), { inputs: { rows: [{ n: 2 }] } });
    expect(rerun.status, rerun.text).toBe(201);
    const again = await admin.call("GET", orgPath(`/runs/${rerun.body.run_id}`));
    expect(again.body).toMatchObject({ rerun_of: original, inputs: { rows: [{ n: 2 }] } });
    expect(again.body.events[0]).toMatchObject({ action: "rerun", to: "pending" });
    expect((await admin.call("GET", orgPath(`/runs/${original}`))).body.reruns).toEqual([rerun.body.run_id]);
  });
});
