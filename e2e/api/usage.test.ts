// Usage from outside (docs/api.md, Usage): the usage API's bounds, groups and organization
// isolation on the shared server, and on a server of its own the rollups equal what the base tables
// say after a mix of triggers, replies, runs and uploads, a clean shutdown included.
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { signIn } from "./console";
import { call, createAgent, ctx, expectError, mintKey, SIMPLE_WORKFLOW } from "./helpers";
import { ownServer, type DbTarget, type OwnServer } from "./server";

const usagePath = (org: string, q = "") => `/api/v1/organizations/${org}/usage${q ? `?${q}` : ""}`;
const fieldOf = (res: { body: any }) => res.body.error.details.fields[0].field as string;

/** Polls `read` until `done` holds (the rollups reach the database within about a second), at most 20 s. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("the usage API", () => {
  it.each([
    ["from after to", "from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z", "from"],
    ["from equal to to", "from=2026-11-01T00:00:00Z&to=2026-11-01T00:00:00Z", "from"],
    ["a range over 90 days", "from=2026-01-01T00:00:00Z&to=2026-11-01T00:00:00Z", "from"],
    ["a from that is no date", "from=yesterday", "from"],
    ["an unknown group_by", "group_by=minute", "group_by"],
  ])("refuses %s with 400 invalid_request naming the field", async (_label, q, field) => {
    const { orgA } = ctx();
    const res = await call("GET", usagePath(orgA.organization_id, q), { auth: orgA.user_token });
    expectError(res, 400, "invalid_request");
    expect(fieldOf(res)).toBe(field);
  });

  it("answers every hour of the range, zeros included, by default the last 24", async () => {
    const { orgA } = ctx();
    const res = await call("GET", usagePath(orgA.organization_id), { auth: orgA.user_token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.group_by).toBe("hour");
    expect(res.body.groups.length).toBeGreaterThanOrEqual(24);
    expect(res.body.groups.length).toBeLessThanOrEqual(25);
    expect(res.body.groups[0].group).toBe(res.body.from);
  });

  it("counts a trigger by agent and by key, and shows nothing of it to another organization", async () => {
    const { orgA, orgB } = ctx();
    const agent = await createAgent(orgA);
    const key = await mintKey(orgA);
    const sent = await call("POST", `/api/agents/webhook/${agent.agent_id}`, {
      auth: key.key,
      body: { message: "hi" },
    });
    expect(sent.status, sent.text).toBe(200);
    const byAgent = await until(
      () =>
        call("GET", usagePath(orgA.organization_id, `group_by=agent&agent_id=${agent.agent_id}`), {
          auth: orgA.user_token,
        }),
      (r) => r.body?.totals?.replies_completed === 1,
    );
    expect(byAgent.status, byAgent.text).toBe(200);
    expect(byAgent.body.groups).toEqual([
      expect.objectContaining({ group: agent.agent_id, triggers: 1, replies_completed: 1 }),
    ]);
    const byKey = await call("GET", usagePath(orgA.organization_id, `group_by=key&key_id=${key.key_id}`), {
      auth: orgA.user_token,
    });
    expect(byKey.body.groups).toEqual([expect.objectContaining({ group: key.key_id, triggers: 1 })]);
    // Another organization's token on this organization's path, and its own usage filtered by the agent.
    const foreign = await call("GET", usagePath(orgA.organization_id), { auth: orgB.user_token });
    expect(foreign.status).toBe(404);
    const own = await call("GET", usagePath(orgB.organization_id, `group_by=agent&agent_id=${agent.agent_id}`), {
      auth: orgB.user_token,
    });
    expect(own.status).toBe(200);
    expect(own.body.groups).toEqual([]);
    expect(own.body.totals.triggers).toBe(0);
  });

  it("answers the console the same figures", async () => {
    const admin = await signIn("admin-a@example.com");
    const res = await admin.call(
      "GET",
      `/api/v1/organizations/${ctx().orgA.organization_id}/usage?group_by=day&from=2026-11-01T00:00:00Z&to=2026-11-03T00:00:00Z`,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.groups.map((g: { group: string }) => g.group)).toEqual([
      "2026-11-01T00:00:00.000Z",
      "2026-11-02T00:00:00.000Z",
    ]);
  });
});

/** SQL on the own server's database: PostgreSQL while it runs, the embedded one only once it stopped. */
async function sql(target: DbTarget, text: string): Promise<any[]> {
  if (target.databaseUrl) {
    const c = new pg.Client({ connectionString: target.databaseUrl });
    await c.connect();
    try {
      return (await c.query(text)).rows;
    } finally {
      await c.end();
    }
  }
  const db = new PGlite(path.join(target.dataDir, "pglite"));
  try {
    return (await db.query(text)).rows as any[];
  } finally {
    await db.close();
  }
}

describe("the rollups equal the base tables", () => {
  let own: OwnServer | undefined;
  afterAll(async () => own?.dispose());

  it("after triggers, failed replies, runs and uploads, and a clean shutdown", async () => {
    own = await ownServer("usage");
    const org = own.org.organization_id;
    const key = await own.mintKey();
    const echo = await own.createAgent({ name: "echo", kind: "conversational", runtime: { type: "echo" } });
    // A runtime whose address is refused (metadata address): its replies fail at once.
    const broken = await own.createAgent({
      name: "broken",
      kind: "conversational",
      runtime: { type: "http", url: "http://169.254.169.254/reply", timeout_ms: 1_000 },
    });
    const wf = await own.createAgent(SIMPLE_WORKFLOW);
    for (let i = 0; i < 4; i++) {
      const res = await own.call("POST", `/api/agents/webhook/${echo}`, { auth: key, body: { message: `hi ${i}` } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    for (let i = 0; i < 2; i++) {
      const res = await own.call("POST", `/api/agents/webhook/${broken}`, { auth: key, body: { message: "hi" } });
      expect(res.status, JSON.stringify(res.body)).toBe(502);
    }
    for (let i = 0; i < 3; i++) {
      const res = await own.call("POST", `/api/agents/webhook/${wf}`, { auth: key, body: { rows: [1, 2] } });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
    }
    const form = new FormData();
    form.append("file", new Blob(["a,b\n1,2\n"], { type: "text/csv" }), "u.csv");
    const up = await fetch(`${own.server.baseUrl}/api/agents/${echo}/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(up.status).toBe(200);

    const report = await until(
      () => own!.call("GET", usagePath(org, "group_by=agent"), { auth: own!.org.user_token }),
      (r) => r.body?.totals?.runs_completed === 3 && r.body?.totals?.uploads === 1,
    );
    expect(report.body.totals).toMatchObject({
      triggers: 6,
      replies_completed: 4,
      replies_failed: 2,
      error_rate: 2 / 6,
      runs_started: 3,
      runs_completed: 3,
      uploads: 1,
      upload_bytes: 8,
    });
    expect(report.body.totals.latency_p50_ms).toBeGreaterThan(0);

    // One more trigger right before a clean shutdown: its counts are flushed, not lost.
    const last = await own.call("POST", `/api/agents/webhook/${echo}`, { auth: key, body: { message: "last" } });
    expect(last.status).toBe(200);
    await own.server.stop("SIGTERM");

    const [rollup] = await sql(
      own.target,
      `SELECT sum(triggers)::int t, sum(replies_completed)::int rc, sum(replies_failed)::int rf, sum(runs_started)::int rs,
         sum(runs_completed)::int re, sum(prompt_tokens)::int pt, sum(completion_tokens)::int ct, sum(uploads)::int up,
         sum(upload_bytes)::int ub, sum((SELECT sum(x) FROM unnest(latency_buckets) x))::int hist
       FROM usage_hourly WHERE organization_id = '${org}'`,
    );
    const [truth] = await sql(
      own.target,
      `SELECT (SELECT count(*) FROM messages WHERE organization_id = '${org}' AND role = 'user')::int t,
         (SELECT count(*) FROM messages WHERE organization_id = '${org}' AND role = 'assistant' AND status = 'completed')::int rc,
         (SELECT count(*) FROM messages WHERE organization_id = '${org}' AND role = 'assistant' AND status = 'error')::int rf,
         (SELECT count(*) FROM runs WHERE organization_id = '${org}')::int rs,
         (SELECT count(*) FROM runs WHERE organization_id = '${org}' AND status = 'completed')::int re,
         (SELECT COALESCE(sum(prompt_tokens), 0) FROM messages WHERE organization_id = '${org}')::int pt,
         (SELECT COALESCE(sum(completion_tokens), 0) FROM messages WHERE organization_id = '${org}')::int ct,
         (SELECT count(*) FROM files WHERE organization_id = '${org}')::int up,
         (SELECT COALESCE(sum(size_bytes), 0) FROM files WHERE organization_id = '${org}')::int ub`,
    );
    expect(truth.t).toBe(7);
    expect(rollup).toEqual({ ...truth, hist: truth.rc + truth.rf });
  });
});
