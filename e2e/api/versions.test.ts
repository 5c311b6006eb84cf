// Agent versions (docs/api.md, Versions) through the production server, as a client of the public
// and management APIs sees them: the draft never served, publish, pins, a session that keeps its
// version across a publish, restore, rollback twice, concurrent draft writes with ETags, the
// canary's share over 1,000 new sessions and its stickiness per end user, runs that keep their
// version, and every refusal with its status, code and field. Version 1 of each agent answers; its
// draft (version 2 here) fails every reply (the echo runtime's fail hook), so which version served
// is visible in the answers themselves.
import { describe, expect, it } from "vitest";
import { orgPath, signIn } from "./console";
import { call, createAgent, ctx, ECHO_AGENT, expectError, mintKey, SIMPLE_WORKFLOW, type ApiResponse } from "./helpers";

const agentsOf = (orgId: string) => `/api/v1/organizations/${orgId}/agents`;
const FAILING = { type: "echo", fail: "error" };

/** An echo agent of org A with a key; `path` is its management path. */
async function echoAgent(spec: unknown = ECHO_AGENT) {
  const { orgA } = ctx();
  const agent = await createAgent(orgA, spec);
  const key = (await mintKey(orgA)).key;
  const path = `${agentsOf(orgA.organization_id)}/${agent.agent_id}`;
  const admin = (method: string, p = "", body?: unknown, headers?: Record<string, string>) =>
    call(method, `${path}${p}`, { auth: orgA.user_token, body, headers });
  const trigger = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call("POST", `/api/agents/webhook/${agent.agent_id}`, { auth: key, body, headers });
  return { id: agent.agent_id, key, path, admin, trigger };
}

const fieldsOf = (res: ApiResponse) => res.body.error.details.fields.map((f: { field: string }) => f.field);

describe("versions: draft, publish, pins, sessions", () => {
  it("an edit writes a draft that no trigger is served; publish makes it live; an open session keeps its version", async () => {
    const a = await echoAgent();
    const created = await a.admin("GET");
    expect(created.body).toMatchObject({ published_version: 1, draft_version: null, rollout: null });
    expect(created.headers.get("etag")).toBe('"v1"');
    const open = await a.trigger({ message: "before" });
    expect(open.status, open.text).toBe(200);
    expect(open.body.agent_version).toBe(1);

    const edited = await a.admin("PATCH", "", { runtime: FAILING, base_version: 1, note: "breaks replies" });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ published_version: 1, draft_version: 2, runtime: { type: "echo" } });
    expect(edited.headers.get("etag")).toBe('"v2"');
    // The draft is never served: new sessions still reply with version 1.
    const fresh = await a.trigger({ message: "draft exists" });
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.agent_version).toBe(1);

    const published = await a.admin("POST", "/publish", { note: "go", version: 2 });
    expect(published.status, published.text).toBe(200);
    expect(published.body).toMatchObject({ published_version: 2, draft_version: null, runtime: FAILING });
    // New sessions get version 2 (its replies fail); the session opened before keeps version 1.
    const failing = await a.trigger({ message: "after" });
    expectError(failing, 502, "upstream_error");
    const kept = await a.trigger({ message: "still here", session_id: open.body.session_id });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.agent_version).toBe(1);
    const reply = await call(
      "GET",
      `/api/agents/${a.id}/sessions/${open.body.session_id}/messages/${kept.body.message_id}`,
      { auth: a.key },
    );
    expect(reply.body).toMatchObject({ role: "assistant", status: "completed", agent_version: 1 });
    const messages = await call("GET", `/api/agents/${a.id}/sessions/${open.body.session_id}/messages`, {
      auth: a.key,
    });
    expect(messages.body.messages.map((m: { role: string; agent_version: number | null }) => m.agent_version)).toEqual([
      null,
      1,
      null,
      1,
    ]);
    expectError(await a.admin("POST", "/publish"), 409, "nothing_to_publish");
  });

  it("a trigger pins a version that is or was published; another is 400 invalid_agent_version naming the field", async () => {
    const a = await echoAgent();
    await a.admin("PATCH", "", { runtime: FAILING, base_version: 1, publish: true });
    const pinned = await a.trigger({ message: "pinned", agent_version: 1 });
    expect(pinned.status, pinned.text).toBe(200);
    expect(pinned.body.agent_version).toBe(1);
    // The pin applies to that trigger: the session's next message without one keeps the session's version.
    const next = await a.trigger({ message: "next", session_id: pinned.body.session_id });
    expect(next.body.agent_version).toBe(1);
    await a.admin("PATCH", "", { runtime: { type: "echo", delay_ms: 1 }, base_version: 2 });
    for (const bad of [3, 99, 0, "1", 1.5]) {
      const res = await a.trigger({ message: "bad pin", agent_version: bad });
      expectError(res, 400, "invalid_agent_version");
      expect(fieldsOf(res)).toEqual(["agent_version"]);
    }
    // A version of another agent is no version of this one.
    const b = await echoAgent();
    await b.admin("PATCH", "", { runtime: { type: "echo", delay_ms: 2 }, base_version: 1, publish: true });
    const fresh = await echoAgent();
    expectError(await fresh.trigger({ message: "x", agent_version: 2 }), 400, "invalid_agent_version");
    // Asynchronous triggers answer the version too.
    const accepted = await a.trigger({ message: "async", agent_version: 1 }, { prefer: "respond-async" });
    expect(accepted.status).toBe(202);
    expect(accepted.body.agent_version).toBe(1);
  });

  it("of two draft writes naming the same version exactly one wins; the other is 409 draft_conflict naming the newer", async () => {
    const a = await echoAgent();
    const [x, y] = await Promise.all([
      a.admin("PATCH", "", { runtime: { type: "echo", delay_ms: 1 } }, { "if-match": '"v1"' }),
      a.admin("PATCH", "", { runtime: { type: "echo", delay_ms: 2 } }, { "if-match": '"v1"' }),
    ]);
    const statuses = [x.status, y.status].sort();
    expect(statuses).toEqual([200, 409]);
    const lost = x.status === 409 ? x : y;
    expectError(lost, 409, "draft_conflict");
    expect(lost.body.error.details).toEqual({
      base_version: 1,
      head_version: 2,
      draft_version: 2,
      published_version: 1,
    });
    // A write without a base may not replace the draft; a stale base_version is refused as If-Match is.
    expectError(await a.admin("PATCH", "", { runtime: { type: "echo", delay_ms: 3 } }), 409, "draft_conflict");
    expectError(
      await a.admin("PATCH", "", { runtime: { type: "echo", delay_ms: 3 }, base_version: 1 }),
      409,
      "draft_conflict",
    );
    const won = await a.admin("PATCH", "", { runtime: { type: "echo", delay_ms: 3 }, base_version: 2 });
    expect(won.body.draft_version).toBe(3);
    const list = await a.admin("GET", "/versions");
    expect(list.body.versions.map((v: { version: number; state: string }) => [v.version, v.state])).toEqual([
      [3, "draft"],
      [2, "superseded"],
      [1, "published"],
    ]);
    // A malformed If-Match names the header.
    const bad = await a.admin("PATCH", "", { runtime: { type: "echo" } }, { "if-match": "v3" });
    expectError(bad, 400, "invalid_request");
    expect(fieldsOf(bad)).toEqual(["If-Match"]);
  });

  it("restore copies a version's stored values (never the redacted mask) into the draft; rollback twice returns", async () => {
    const receiver = await startReceiver();
    try {
      const header = (value: string) => ({ type: "http", url: receiver.url, headers: { "x-tenant-token": value } });
      const a = await echoAgent({ name: "restored", kind: "conversational", runtime: header("tenant-secret-value-1") });
      expect((await a.admin("GET")).body.runtime.headers["x-tenant-token"]).toBe("[redacted]");
      const v2 = await a.admin("PATCH", "", {
        runtime: header("tenant-secret-value-2"),
        base_version: 1,
        publish: true,
      });
      expect(v2.body.published_version).toBe(2);
      // Restoring the published version over no draft; then the draft itself cannot be restored.
      const restored = await a.admin("POST", "/versions/1/restore", { note: "back to the first token" });
      expect(restored.status, restored.text).toBe(200);
      expect(restored.body).toMatchObject({ published_version: 2, draft_version: 3 });
      expectError(await a.admin("POST", "/versions/3/restore", {}), 409, "version_is_draft");
      // Over a draft, a restore must name it.
      expectError(await a.admin("POST", "/versions/2/restore"), 409, "draft_conflict");
      const draft = await a.admin("GET", "/versions/3");
      expect(draft.body).toMatchObject({ state: "draft", base_version: 1, note: "back to the first token" });
      expect(draft.body.runtime.headers["x-tenant-token"]).toBe("[redacted]");
      const diff = await a.admin("GET", "/versions/2/diff?to=3");
      expect(diff.body.changes).toEqual([
        { path: "runtime.headers.x-tenant-token", change: "changed", from: "[redacted]", to: "[redacted]" },
      ]);
      expect((await a.admin("POST", "/publish", {})).body.published_version).toBe(3);
      expect((await a.trigger({ message: "which token?" })).status).toBe(200);
      expect(receiver.seen.at(-1)!["x-tenant-token"]).toBe("tenant-secret-value-1");

      // Rollback: 3 -> 2 (what served before), and again 2 -> 3.
      const back = await a.admin("POST", "/rollback", { note: "wrong tenant" });
      expect(back.body).toMatchObject({ published_version: 2, draft_version: null });
      await a.trigger({ message: "after rollback" });
      expect(receiver.seen.at(-1)!["x-tenant-token"]).toBe("tenant-secret-value-2");
      const again = await a.admin("POST", "/rollback");
      expect(again.body.published_version).toBe(3);
      await a.trigger({ message: "rolled forward" });
      expect(receiver.seen.at(-1)!["x-tenant-token"]).toBe("tenant-secret-value-1");
    } finally {
      await receiver.close();
    }
  });
});

describe("versions: canary rollouts", () => {
  it("serves the canary to its share of 1,000 new sessions (within 10 points) and keeps each end user on one version", async () => {
    const a = await echoAgent();
    await a.admin("PATCH", "", { runtime: { type: "echo", delay_ms: 0, max_concurrency: 500 }, base_version: 1 });
    const started = await a.admin("POST", "/publish", { rollout_percent: 30 });
    expect(started.body).toMatchObject({ published_version: 1, rollout: { version: 2, percent: 30, from_version: 1 } });
    expectError(await a.admin("POST", "/publish", {}), 409, "rollout_in_progress");
    const versions: number[] = [];
    for (let batch = 0; batch < 50; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => a.trigger({ message: "canary?" }, { prefer: "respond-async" })),
      );
      for (const res of answers) {
        expect(res.status, res.text).toBe(202);
        versions.push(res.body.agent_version);
      }
    }
    const share = (versions.filter((v) => v === 2).length / versions.length) * 100;
    expect(Math.abs(share - 30)).toBeLessThanOrEqual(10);
    // One end user: every new session of theirs gets the same version.
    for (const user of ["end-user-a", "end-user-b", "end-user-c"]) {
      const seen = new Set<number>();
      for (let i = 0; i < 8; i++) {
        seen.add(
          (await a.trigger({ message: "me again", user_id: user }, { prefer: "respond-async" })).body.agent_version,
        );
      }
      expect(seen.size).toBe(1);
    }
    const report = await a.admin("GET", "/rollout");
    expect(report.body.rollout).toMatchObject({ version: 2, percent: 30 });
    expect(report.body.versions.map((v: { version: number; role: string }) => [v.version, v.role])).toEqual([
      [2, "canary"],
      [1, "published"],
    ]);
    const completed = await a.admin("POST", "/rollout", { percent: 100 });
    expect(completed.body).toMatchObject({ published_version: 2, rollout: null });
    expectError(await a.admin("POST", "/rollout", { percent: 50 }), 409, "no_rollout");
  });

  it("refuses a rollout share outside 1..100 and a second rollout, naming the field or the rollout", async () => {
    const a = await echoAgent();
    await a.admin("PATCH", "", { runtime: { type: "echo", delay_ms: 1 }, base_version: 1 });
    for (const percent of [0, 101, 50.5, "50"]) {
      const res = await a.admin("POST", "/publish", { rollout_percent: percent });
      expectError(res, 400, "invalid_request");
      expect(fieldsOf(res)).toEqual(["rollout_percent"]);
    }
    await a.admin("POST", "/publish", { rollout_percent: 10 });
    const change = await a.admin("POST", "/rollout", { percent: 0 });
    expectError(change, 400, "invalid_request");
    expect(fieldsOf(change)).toEqual(["percent"]);
    await a.admin("PATCH", "", { runtime: { type: "echo", delay_ms: 2 }, base_version: 2 });
    const second = await a.admin("POST", "/publish", {});
    expectError(second, 409, "rollout_in_progress");
    expect(second.body.error.details).toEqual({ rollout_version: 2, percent: 10 });
    // Rollback ends the rollout: the published version serves everyone again.
    const back = await a.admin("POST", "/rollback");
    expect(back.body).toMatchObject({ published_version: 1, rollout: null, draft_version: 3 });
  });
});

describe("versions: workflow runs", () => {
  it("a run names its version, keeps its definition across a publish, and may pin one", async () => {
    const { orgA } = ctx();
    const a = await echoAgent(SIMPLE_WORKFLOW);
    const first = await a.trigger({ rows: [{ n: 1 }] });
    expect(first.status, first.text).toBe(202);
    expect(first.body.agent_version).toBe(1);
    // Version 2 declares another input; version 1's runs keep their own definition.
    const v2 = {
      ...SIMPLE_WORKFLOW.workflow,
      inputs: { rows: { type: "array", required: true }, tag: { type: "string", required: true } },
    };
    await a.admin("PATCH", "", { workflow: v2, base_version: 1, publish: true });
    expectError(await a.trigger({ rows: [{ n: 1 }] }), 400, "invalid_request");
    const tagged = await a.trigger({ rows: [{ n: 1 }], tag: "x" });
    expect(tagged.body.agent_version).toBe(2);
    const pinned = await a.trigger({ rows: [{ n: 2 }], agent_version: 1 });
    expect(pinned.status, pinned.text).toBe(202);
    expect(pinned.body.agent_version).toBe(1);
    for (const run of [first.body.run_id, pinned.body.run_id]) {
      const res = await waitRun(a.id, a.key, run);
      expect(res).toMatchObject({ status: "completed", agent_version: 1 });
    }
    const list = await call("GET", `/api/agents/${a.id}/runs`, { auth: a.key });
    expect(list.body.map((r: { agent_version: number }) => r.agent_version).sort()).toEqual([1, 1, 2]);
    void orgA;
  });
});

describe("versions: the console's lists", () => {
  it("filter sessions and runs by the version they started with (with agent_id), and name it on each", async () => {
    const admin = await signIn("admin-a@example.com");
    const chat = await echoAgent();
    const before = await chat.trigger({ message: "on version 1" });
    await chat.admin("PATCH", "", { runtime: { type: "echo", delay_ms: 1 }, base_version: 1, publish: true });
    const after = await chat.trigger({ message: "on version 2" });
    const sessions = (v: number) => admin.call("GET", orgPath(`/sessions?agent_id=${chat.id}&agent_version=${v}`));
    const v1 = await sessions(1);
    expect(v1.status, v1.text).toBe(200);
    expect(
      v1.body.sessions.map((x: { session_id: string; agent_version: number }) => [x.session_id, x.agent_version]),
    ).toEqual([[before.body.session_id, 1]]);
    expect((await sessions(2)).body.sessions.map((x: { session_id: string }) => x.session_id)).toEqual([
      after.body.session_id,
    ]);
    const flow = await echoAgent(SIMPLE_WORKFLOW);
    const run1 = await flow.trigger({ rows: [{ n: 1 }] });
    await flow.admin("PATCH", "", { runtime: { type: "echo", delay_ms: 1 }, base_version: 1, publish: true });
    const run2 = await flow.trigger({ rows: [{ n: 2 }] });
    const runs = (v: number) => admin.call("GET", orgPath(`/runs?agent_id=${flow.id}&agent_version=${v}`));
    expect((await runs(1)).body.runs.map((r: { run_id: string }) => r.run_id)).toEqual([run1.body.run_id]);
    expect(
      (await runs(2)).body.runs.map((r: { run_id: string; agent_version: number }) => [r.run_id, r.agent_version]),
    ).toEqual([[run2.body.run_id, 2]]);
    // A version of which agent: the filter needs agent_id.
    const alone = await admin.call("GET", orgPath("/runs?agent_version=1"));
    expectError(alone, 400, "invalid_request");
    expect(fieldsOf(alone)).toEqual(["agent_version"]);
  });
});

describe("versions: who may, and whose", () => {
  it("support reads versions and diffs but cannot edit, publish, roll out, roll back, restore or discard (403)", async () => {
    const { supportA } = ctx();
    const a = await echoAgent();
    await a.admin("PATCH", "", { runtime: { type: "echo", delay_ms: 1 }, base_version: 1 });
    const s = (method: string, p: string, body?: unknown) =>
      call(method, `${a.path}${p}`, { auth: supportA.user_token, body });
    expect((await s("GET", "/versions")).status).toBe(200);
    expect((await s("GET", "/versions/2")).status).toBe(200);
    expect((await s("GET", "/versions/1/diff?to=2")).status).toBe(200);
    expect((await s("GET", "/rollout")).status).toBe(200);
    for (const [method, p, body] of [
      ["PATCH", "", { runtime: { type: "echo" }, base_version: 2 }],
      ["POST", "/publish", {}],
      ["POST", "/rollout", { percent: 50 }],
      ["POST", "/rollback", {}],
      ["POST", "/versions/1/restore", { base_version: 2 }],
      ["DELETE", "/draft", undefined],
    ] as const) {
      expectError(await s(method, p, body), 403, "forbidden");
    }
    expect((await a.admin("GET")).body).toMatchObject({ published_version: 1, draft_version: 2 });
  });

  it("another organization's agent and versions answer as missing; a version of another agent is missing", async () => {
    const { orgB } = ctx();
    const a = await echoAgent();
    const b = await echoAgent();
    await b.admin("PATCH", "", { runtime: { type: "echo", delay_ms: 1 }, base_version: 1 });
    // Org B's token on org A's path: not a member.
    expectError(await call("GET", `${a.path}/versions`, { auth: orgB.user_token }), 404, "organization_not_found");
    // Org B's own path with org A's agent: no such agent.
    const foreign = `${agentsOf(orgB.organization_id)}/${a.id}`;
    for (const [method, p] of [
      ["GET", "/versions"],
      ["GET", "/versions/1"],
      ["GET", "/versions/1/diff?to=1"],
      ["POST", "/versions/1/restore"],
      ["POST", "/publish"],
      ["POST", "/rollback"],
      ["GET", "/rollout"],
    ] as const) {
      expectError(await call(method, `${foreign}${p}`, { auth: orgB.user_token }), 404, "agent_not_found");
    }
    // Version 2 exists on b only: a has none.
    expectError(await a.admin("GET", "/versions/2"), 404, "agent_version_not_found");
    expectError(await a.admin("GET", "/versions/1/diff?to=2"), 404, "agent_version_not_found");
    expectError(await a.admin("POST", "/versions/2/restore", {}), 404, "agent_version_not_found");
    const badPath = await a.admin("GET", "/versions/0");
    expectError(badPath, 400, "invalid_request");
  });

  it("refuses to publish a draft that no longer passes: a secret it names was deleted (400 invalid_agent, the field)", async () => {
    const { orgA } = ctx();
    const secrets = `/api/v1/organizations/${orgA.organization_id}/secrets`;
    const name = `versions-${Date.now()}`;
    expect(
      (await call("PUT", `${secrets}/${name}`, { auth: orgA.user_token, body: { value: "a-secret-value-1" } })).status,
    ).toBe(201);
    const a = await echoAgent();
    const runtime = {
      type: "http",
      url: "https://agents.example.com/reply",
      headers: { authorization: `Bearer {{secrets.${name}}}` },
    };
    expect((await a.admin("PATCH", "", { runtime, base_version: 1 })).status).toBe(200);
    // The secret is used by a draft only: nothing serves it, so it may be deleted.
    const deleted = await call("DELETE", `${secrets}/${name}`, { auth: orgA.user_token });
    expect(deleted.status, deleted.text).toBe(200);
    const refused = await a.admin("POST", "/publish", {});
    expectError(refused, 400, "invalid_agent");
    expect(fieldsOf(refused)).toEqual(["runtime.headers.authorization"]);
  });
});

async function waitRun(agentId: string, key: string, runId: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await call("GET", `/api/agents/${agentId}/runs/${runId}`, { auth: key, headers: { prefer: "wait=5" } });
    if (!["pending", "running"].includes(res.body.status) || Date.now() > deadline) return res.body;
  }
}

/** A local upstream for the http runtime: answers every POST and records its headers. */
async function startReceiver() {
  const http = await import("node:http");
  const seen: Record<string, string | string[] | undefined>[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on("end", () =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ content: "ok" })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/reply`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
