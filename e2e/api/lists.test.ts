// The console lists' filters (docs/console.md, "List filters") and saved views ("Saved views"):
// each filter is shown to leave out a record it should leave out; a bad value answers 400
// invalid_request naming the field; views are personal or shared, changed only by their owner or,
// when shared, an admin, and invisible across organizations.
import { beforeAll, describe, expect, it } from "vitest";
import { orgPath, signIn, type ConsoleSession } from "./console";
import { call, createAgent, ctx, expectError, mintKey } from "./helpers";

let key: string;
let admin: ConsoleSession;
let support: ConsoleSession;
let adminB: ConsoleSession;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const workflow = (name: string, steps: unknown[]) => ({
  name,
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "array", required: true }, user_id: { type: "string" } },
    items: { from: "rows" },
    steps,
  },
});

async function runUntilDone(agent: string, runId: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await call("GET", `/api/agents/${agent}/runs/${runId}`, { auth: key });
    if (["completed", "failed"].includes(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`run ${runId} stayed ${res.body.status}`);
    await sleep(50);
  }
}

const ids = (rows: { [k: string]: unknown }[], field: string) => rows.map((r) => r[field]);

beforeAll(async () => {
  key = (await mintKey(ctx().orgA)).key;
  admin = await signIn("admin-a@example.com");
  support = await signIn("support-a@example.com");
  adminB = await signIn("admin-b@example.com");
});

describe("sessions filters", () => {
  let agent: string;
  let other: string;
  const made: string[] = [];
  beforeAll(async () => {
    agent = (await createAgent(ctx().orgA)).agent_id;
    other = (await createAgent(ctx().orgA)).agent_id;
    for (const [a, user] of [
      [agent, "alice"],
      [agent, "bob"],
      [other, "alice"],
    ] as const) {
      const res = await call("POST", `/api/agents/webhook/${a}`, { auth: key, body: { message: "hi", user_id: user } });
      expect(res.status, res.text).toBe(200);
      made.push(res.body.session_id);
      await sleep(20);
    }
  });

  it("agent_id, user_id, status, from and to each leave out what they should", async () => {
    const list = async (q: string) =>
      (await admin.call("GET", orgPath(`/sessions?limit=100&${q}`))).body.sessions as any[];
    expect(ids(await list(`agent_id=${agent}`), "session_id")).toEqual([made[1], made[0]]);
    expect(ids(await list(`agent_id=${agent}&user_id=alice`), "session_id")).toEqual([made[0]]);
    expect(ids(await list(`agent_id=${agent}&status=closed`), "session_id")).toEqual([]);
    const all = await list(`agent_id=${agent}`);
    const second = all.find((s) => s.session_id === made[1])!;
    const from = encodeURIComponent(second.last_message_at);
    expect(ids(await list(`agent_id=${agent}&from=${from}`), "session_id")).toEqual([made[1]]);
    expect(ids(await list(`agent_id=${agent}&to=${from}`), "session_id")).toEqual([made[0]]);
    expect(ids(await list(`agent_id=${agent}&to=2000-01-01`), "session_id")).toEqual([]);
    expect(ids(await list(`agent_id=${agent}&environment=draft`), "session_id")).toEqual([]);
  });

  it("answers 400 invalid_request naming the field of an unknown value", async () => {
    for (const [q, field] of [
      ["status=sleeping", "status"],
      ["from=yesterday", "from"],
      ["to=2026-13-45", "to"],
      ["agent_id=nope", "agent_id"],
      ["environment=staging", "environment"],
    ]) {
      const res = await admin.call("GET", orgPath(`/sessions?${q}`));
      expectError(res, 400, "invalid_request");
      expect(
        res.body.error.details.fields.map((f: any) => f.field),
        q,
      ).toContain(field);
    }
  });
});

describe("runs filters", () => {
  let ok: string;
  let fatal: string;
  const runs: string[] = [];
  beforeAll(async () => {
    ok = (await createAgent(ctx().orgA, workflow("lists ok", [{ id: "t", type: "transform", expression: "item" }])))
      .agent_id;
    fatal = (
      await createAgent(
        ctx().orgA,
        workflow("lists fatal", [{ id: "boom", type: "fail", when: "true", fatal: true, message: "bad" }]),
      )
    ).agent_id;
    for (const [a, user] of [
      [ok, "carol"],
      [ok, "dave"],
      [fatal, "carol"],
    ] as const) {
      const res = await call("POST", `/api/agents/webhook/${a}`, {
        auth: key,
        body: { rows: [{ n: 1 }], user_id: user },
      });
      expect(res.status, res.text).toBeLessThan(300);
      runs.push(res.body.run_id);
      await runUntilDone(a, res.body.run_id);
      await sleep(20);
    }
  });

  it("agent_id, status, user_id, has_error, from and to each leave out what they should", async () => {
    const list = async (q: string) => {
      const res = await admin.call("GET", orgPath(`/runs?limit=100&${q}`));
      expect(res.status, res.text).toBe(200);
      return ids(res.body.runs, "run_id").filter((id) => runs.includes(id as string));
    };
    expect(await list(`agent_id=${ok}`)).toEqual([runs[1], runs[0]]);
    expect(await list(`agent_id=${ok}&user_id=carol`)).toEqual([runs[0]]);
    expect(await list(`user_id=carol`)).toEqual([runs[2], runs[0]]);
    expect(await list(`status=failed&user_id=carol`)).toEqual([runs[2]]);
    expect(await list(`has_error=true&user_id=carol`)).toEqual([runs[2]]);
    expect(await list(`has_error=false&user_id=carol`)).toEqual([runs[0]]);
    const listed = (await admin.call("GET", orgPath(`/runs?agent_id=${ok}`))).body.runs as any[];
    const at = encodeURIComponent(listed.find((r) => r.run_id === runs[1]).created_at);
    expect(await list(`agent_id=${ok}&from=${at}`)).toEqual([runs[1]]);
    expect(await list(`agent_id=${ok}&to=${at}`)).toEqual([runs[0]]);
  });

  it("answers 400 invalid_request naming the field of an unknown value", async () => {
    for (const [q, field] of [
      ["status=sleeping", "status"],
      ["has_error=maybe", "has_error"],
      ["from=2026-11-27T25:00:00Z", "from"],
    ]) {
      const res = await admin.call("GET", orgPath(`/runs?${q}`));
      expectError(res, 400, "invalid_request");
      expect(
        res.body.error.details.fields.map((f: any) => f.field),
        q,
      ).toContain(field);
    }
  });
});

describe("deliveries, audit and files filters", () => {
  let agent: string;
  beforeAll(async () => {
    agent = (await createAgent(ctx().orgA)).agent_id;
    const res = await call("POST", `/api/agents/webhook/${agent}`, {
      auth: key,
      body: { message: "hi", callback_url: "https://callbacks.invalid/lists" },
    });
    expect(res.status, res.text).toBe(200);
  });

  it("deliveries: agent_id, status, has_error, from and to", async () => {
    const list = async (q: string) => {
      const res = await admin.call("GET", orgPath(`/deliveries?limit=100&${q}`));
      expect(res.status, res.text).toBe(200);
      return res.body.deliveries as any[];
    };
    const mine = await list(`agent_id=${agent}`);
    expect(mine).toHaveLength(1);
    const d = mine[0];
    expect(await list(`agent_id=${agent}&status=delivered`)).toEqual([]);
    expect(ids(await list(`agent_id=${agent}&status=${d.status}`), "id")).toEqual([d.id]);
    if (d.status !== "failed") {
      expect(await list(`agent_id=${agent}&has_error=true`)).toEqual([]);
      expect(ids(await list(`agent_id=${agent}&has_error=false`), "id")).toEqual([d.id]);
    }
    expect(await list(`agent_id=${agent}&to=2000-01-01`)).toEqual([]);
    expect(await list(`agent_id=${agent}&from=2999-01-01`)).toEqual([]);
    expect(ids(await list(`agent_id=${agent}&from=2000-01-01&to=2999-01-01`), "id")).toEqual([d.id]);
    expectError(await admin.call("GET", orgPath("/deliveries?status=lost")), 400, "invalid_request");
  });

  it("deliveries: a message subject carries its session_id (each row its own session), a run subject null", async () => {
    const second = await call("POST", `/api/agents/webhook/${agent}`, {
      auth: key,
      body: { message: "again", callback_url: "https://callbacks.invalid/lists" },
    });
    expect(second.status, second.text).toBe(200);
    const wf = (
      await createAgent(
        ctx().orgA,
        workflow("deliveries subjects", [{ id: "t", type: "transform", expression: "item" }]),
      )
    ).agent_id;
    const run = await call("POST", `/api/agents/webhook/${wf}`, {
      auth: key,
      body: { rows: [{ a: 1 }], callback_url: "https://callbacks.invalid/lists-run" },
    });
    expect(run.status, run.text).toBe(202);
    await runUntilDone(wf, run.body.run_id);

    const res = await admin.call("GET", orgPath(`/deliveries?limit=100&agent_id=${agent}`));
    expect(res.status, res.text).toBe(200);
    const bySubject = Object.fromEntries(
      (res.body.deliveries as { subject_id: string; session_id: string | null }[]).map((d) => [
        d.subject_id,
        d.session_id,
      ]),
    );
    expect(bySubject[second.body.message_id]).toBe(second.body.session_id);
    expect(Object.keys(bySubject)).toHaveLength(2);
    const first = Object.entries(bySubject).find(([m]) => m !== second.body.message_id)!;
    expect(first[1]).toMatch(/^sess_/);
    expect(first[1]).not.toBe(second.body.session_id);

    const runDeliveries = async () =>
      (await admin.call("GET", orgPath(`/deliveries?limit=100&agent_id=${wf}`))).body.deliveries as {
        id: string;
        session_id: string | null;
      }[];
    for (const deadline = Date.now() + 30_000; (await runDeliveries()).length === 0;) {
      if (Date.now() > deadline) throw new Error("the run's delivery was never logged");
      await sleep(50);
    }
    const [runDelivery] = await runDeliveries();
    expect(runDelivery!.session_id).toBeNull();
    const detail = await admin.call("GET", orgPath(`/deliveries/${runDelivery!.id}`));
    expect(detail.body.session_id).toBeNull();
    const messageDelivery = (res.body.deliveries as { id: string; subject_id: string }[]).find(
      (d) => d.subject_id === second.body.message_id,
    )!;
    const messageDetail = await admin.call("GET", orgPath(`/deliveries/${messageDelivery.id}`));
    expect(messageDetail.body.session_id).toBe(second.body.session_id);
  });

  it("audit: from and to beside the action", async () => {
    const list = async (q: string) => {
      const res = await admin.call("GET", orgPath(`/audit?action=agent.created&${q}`));
      expect(res.status, res.text).toBe(200);
      return res.body.events as any[];
    };
    const all = await list("limit=100");
    expect(all.length).toBeGreaterThan(0);
    expect(await list("to=2000-01-01")).toEqual([]);
    const newest = all[0];
    const oldest = all.at(-1);
    const later = await list(`limit=100&from=${encodeURIComponent(newest.at)}`);
    expect(later.map((e) => e.event_id)).toContain(newest.event_id);
    expect(later.every((e) => e.at >= newest.at)).toBe(true);
    if (oldest.at < newest.at) expect(later.map((e) => e.event_id)).not.toContain(oldest.event_id);
    const earlier = await list(`limit=100&to=${encodeURIComponent(oldest.at)}`);
    expect(earlier.map((e) => e.event_id)).not.toContain(oldest.event_id);
    expectError(await admin.call("GET", orgPath("/audit?from=soon")), 400, "invalid_request");
  });

  it("files: from and to, and no offset", async () => {
    const files = orgPath(`/agents/${agent}/files`);
    expect((await admin.call("GET", `${files}?to=2000-01-01`)).body.files).toEqual([]);
    expectError(await admin.call("GET", `${files}?from=never`), 400, "invalid_request");
  });
});

describe("saved views", () => {
  const views = `/api/v1/organizations/${ctx().orgA.organization_id}/views`;
  const viewsOfB = () => `/api/v1/organizations/${ctx().orgB.organization_id}/views`;

  it("saves, lists, renames and deletes a personal view; checks its filters against the list", async () => {
    const made = await admin.call("POST", views, {
      list: "runs",
      name: "Failed for carol",
      filters: { status: "failed", user_id: "carol" },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ list: "runs", shared: false, mine: true, editable: true });
    const listed = await admin.call("GET", `${views}?list=runs`);
    expect(ids(listed.body.views, "view_id")).toContain(made.body.view_id);
    expect(ids((await admin.call("GET", `${views}?list=sessions`)).body.views, "view_id")).not.toContain(
      made.body.view_id,
    );
    const renamed = await admin.call("PATCH", `${views}/${made.body.view_id}`, { name: "Carol's failures" });
    expect(renamed.body.name).toBe("Carol's failures");
    expect((await admin.call("DELETE", `${views}/${made.body.view_id}`)).status).toBe(200);
    expectError(await admin.call("DELETE", `${views}/${made.body.view_id}`), 404, "view_not_found");

    const bad = await admin.call("POST", views, { list: "runs", name: "x", filters: { status: "sleeping" } });
    expectError(bad, 400, "invalid_request");
    expect(bad.body.error.details.fields[0].field).toBe("filters.status");
    const unknown = await admin.call("POST", views, { list: "audit", name: "x", filters: { colour: "red" } });
    expectError(unknown, 400, "invalid_request");
    expectError(await admin.call("POST", views, { list: "runs", name: "" }), 400, "invalid_request");
    expectError(await admin.call("POST", views, { list: "runs", name: "n".repeat(81) }), 400, "invalid_request");
    expectError(await admin.call("GET", `${views}?list=keys`), 400, "invalid_request");
  });

  it("keeps a personal view from other members; a shared one is seen by all, changed by its owner or an admin", async () => {
    const personal = (await admin.call("POST", views, { list: "sessions", name: "mine only" })).body;
    const shared = (await admin.call("POST", views, { list: "sessions", name: "for all", shared: true })).body;
    const seen = ids((await support.call("GET", `${views}?list=sessions`)).body.views, "view_id");
    expect(seen).not.toContain(personal.view_id);
    expect(seen).toContain(shared.view_id);
    expectError(await support.call("PATCH", `${views}/${personal.view_id}`, { name: "x" }), 404, "view_not_found");
    expectError(await support.call("DELETE", `${views}/${personal.view_id}`), 404, "view_not_found");
    // Support may not delete or rename an admin's shared view.
    expectError(await support.call("DELETE", `${views}/${shared.view_id}`), 403, "forbidden");
    expectError(await support.call("PATCH", `${views}/${shared.view_id}`, { name: "x" }), 403, "forbidden");
    // Another organization sees neither.
    const other = ids((await adminB.call("GET", `${viewsOfB()}?list=sessions`)).body.views, "view_id");
    expect(other).not.toContain(shared.view_id);
    expectError(await adminB.call("DELETE", `${viewsOfB()}/${shared.view_id}`), 404, "view_not_found");
    expectError(await adminB.call("DELETE", `${views}/${shared.view_id}`), 404, "organization_not_found");
    // An admin deletes a support member's shared view; the deletion is audited.
    const theirs = (await support.call("POST", views, { list: "sessions", name: "support's", shared: true })).body;
    expect(theirs.editable).toBe(true);
    const asAdmin = (await admin.call("GET", `${views}?list=sessions`)).body.views.find(
      (v: any) => v.view_id === theirs.view_id,
    );
    expect(asAdmin).toMatchObject({ mine: false, editable: true });
    expect((await admin.call("DELETE", `${views}/${theirs.view_id}`)).status).toBe(200);
    const audit = await admin.call("GET", orgPath("/audit?action=saved_view.deleted&limit=100"));
    expect(audit.body.events.map((e: any) => e.target.id)).toContain(theirs.view_id);
  });
});

describe("uploaded files from the console", () => {
  it("gives a signed download link; an admin deletes the file, support may not; another organization gets 404", async () => {
    const agent = (await createAgent(ctx().orgA)).agent_id;
    const form = new FormData();
    form.append("file", new Blob(["a,b\n1,2\n"], { type: "text/csv" }), "console.csv");
    const up = await call("POST", `/api/agents/${agent}/upload`, { auth: key, raw: form });
    expect(up.status, up.text).toBe(200);
    const path = orgPath(`/agents/${agent}/files/${up.body.file_id}`);

    const link = await support.call("GET", path);
    expect(link.status, link.text).toBe(200);
    const url = new URL(link.body.download_url);
    const bytes = await fetch(`${ctx().baseUrl}${url.pathname}${url.search}`);
    expect(bytes.status).toBe(200);
    expect(await bytes.text()).toBe("a,b\n1,2\n");

    // Another organization's admin: not a member of org A, and org A's agent is not theirs.
    expectError(await adminB.call("GET", path), 404, "organization_not_found");
    expectError(await adminB.call("DELETE", path), 404, "organization_not_found");
    const inB = orgPath(`/agents/${agent}/files/${up.body.file_id}`, ctx().orgB.organization_id);
    expectError(await adminB.call("GET", inB), 404, "agent_not_found");
    expectError(await adminB.call("DELETE", inB), 404, "agent_not_found");
    expectError(await support.call("DELETE", path), 403, "forbidden");
    expectError(await admin.call("GET", orgPath(`/agents/${agent}/files/fi_${"0".repeat(32)}`)), 404, "not_found");

    const gone = await admin.call("DELETE", path);
    expect(gone.status, gone.text).toBe(200);
    expect(gone.body).toEqual({ file_id: up.body.file_id, deleted: true });
    expectError(await admin.call("GET", path), 404, "not_found");
    expect((await admin.call("GET", orgPath(`/agents/${agent}/files`))).body.files).toEqual([]);
    const audit = await admin.call("GET", orgPath("/audit?action=file.deleted&limit=100"));
    expect(audit.body.events.map((e: any) => e.target.id)).toContain(up.body.file_id);
  });
});
