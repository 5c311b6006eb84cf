// Access Keys past minting through HTTP (docs/api.md, Access Keys): expiry, roll with a grace period
// and the worker's sweep, agent scope on every public route, change after mint, the usage preview.
// Time: on PostgreSQL the test moves a key's revoke_at / expires_at into the past in the database
// (the embedded database admits one process); the unit suite (lib/keys/lifecycle.test.ts) crosses the
// same boundaries with the test clock on both databases.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createAgent, ctx, ECHO_AGENT, expectError, mintKey, SIMPLE_WORKFLOW } from "./helpers";
import { ACCESS_KEY_ROUTES } from "./routes";
import { startServer, type RunningServer } from "./server";

const keysOf = (org: { organization_id: string }) => `/api/v1/organizations/${org.organization_id}/access-keys`;
const onPostgres = !!ctx().target.databaseUrl;

async function sql(text: string, values: unknown[]) {
  const client = new pg.Client({ connectionString: ctx().target.databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Polls until `check` holds (or `limitMs` passes): for the end of a cache entry or a worker's turn. */
async function eventually<T>(what: () => Promise<T>, check: (v: T) => boolean, limitMs: number): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await what();
    if (check(v) || Date.now() - started > limitMs) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const mint = async (body: Record<string, unknown>) => {
  const res = await call("POST", keysOf(ctx().orgA), { auth: ctx().orgA.user_token, body: { name: "life", ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
};

const extra: RunningServer[] = [];
afterAll(async () => {
  for (const s of extra) await s.stop();
});

describe("expiry", () => {
  it("mint takes expires_at; a past or far expiry is refused; an expired key answers 401 access_key_expired", async () => {
    const { orgA } = ctx();
    const agent = await createAgent(orgA);
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const key = await mint({ expires_at: expiresAt });
    expect(key.expires_at).toBe(expiresAt);
    expect((await call("GET", `/api/agents/${agent.agent_id}/sessions`, { auth: key.key })).status).toBe(200);
    const past = await call("POST", keysOf(orgA), {
      auth: orgA.user_token,
      body: { name: "x", expires_at: "2020-01-01T00:00:00Z" },
    });
    expectError(past, 400, "invalid_request");
    expect(past.body.error.details.fields[0].field).toBe("expires_at");
    const far = await call("POST", keysOf(orgA), {
      auth: orgA.user_token,
      body: { name: "x", expires_at: "2099-01-01T00:00:00Z" },
    });
    expectError(far, 400, "invalid_request");
    const bad = await call("POST", keysOf(orgA), { auth: orgA.user_token, body: { name: "x", expires_at: "soon" } });
    expectError(bad, 400, "invalid_request");

    // A key minted to expire two seconds from now: refused once it has.
    const short = await mint({ expires_at: new Date(Date.now() + 2000).toISOString() });
    const refused = await eventually(
      () => call("GET", `/api/agents/${agent.agent_id}/sessions`, { auth: short.key }),
      (r) => r.status === 401,
      10_000,
    );
    expectError(refused, 401, "access_key_expired");
    expect(refused.body.error.message).toContain("expired");
  });

  it.runIf(onPostgres)(
    "an expired key is refused even while an instance holds it in its verification cache",
    async () => {
      const { orgA, target } = ctx();
      const other = await startServer(target, { RUN_WORKER: "false", SEED_DEMO: "false", KEY_CACHE_TTL_MS: "30000" });
      extra.push(other);
      const agent = await createAgent(orgA);
      const key = await mint({ expires_at: new Date(Date.now() + 5000).toISOString() });
      const path = `/api/agents/${agent.agent_id}/sessions`;
      const warm = await fetch(`${other.baseUrl}${path}`, { headers: { authorization: `Bearer ${key.key}` } });
      expect(warm.status).toBe(200); // cached for 30 s from here: refused well before, at its expiry
      const refused = await eventually(
        () => call("GET", path, { auth: key.key, base: other.baseUrl }),
        (r) => r.status === 401,
        15_000,
      );
      expectError(refused, 401, "access_key_expired");
    },
  );
});

describe("roll", () => {
  it("answers the successor as minting does; both keys work in the grace; a second roll is 409", async () => {
    const { orgA } = ctx();
    const agent = await createAgent(orgA);
    const old = await mint({ rate_limit_per_minute: 90, agent_ids: [agent.agent_id] });
    const res = await call("POST", `${keysOf(orgA)}/${old.key_id}/roll`, {
      auth: orgA.user_token,
      body: { grace_period_seconds: 7200 },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      name: "life",
      rate_limit_per_minute: 90,
      agent_ids: [agent.agent_id],
      rolled_from_key_id: old.key_id,
      revoked_at: null,
    });
    expect(res.body.key).toMatch(/^ak_/);
    const path = `/api/agents/${agent.agent_id}/sessions`;
    expect((await call("GET", path, { auth: old.key })).status).toBe(200);
    expect((await call("GET", path, { auth: res.body.key })).status).toBe(200);
    const list = await call("GET", `${keysOf(orgA)}?limit=100`, { auth: orgA.user_token });
    const listedOld = list.body.access_keys.find((k: { key_id: string }) => k.key_id === old.key_id);
    expect(listedOld.rolled_to_key_id).toBe(res.body.key_id);
    expect(Date.parse(listedOld.revoke_at) - Date.now()).toBeGreaterThan(7000 * 1000);

    const again = await call("POST", `${keysOf(orgA)}/${old.key_id}/roll`, {
      auth: orgA.user_token,
      body: { grace_period_seconds: 3600 },
    });
    expectError(again, 409, "access_key_rolled");
    for (const grace of [1, 3599, 604_801, -1, "1h"]) {
      const bad = await call("POST", `${keysOf(orgA)}/${res.body.key_id}/roll`, {
        auth: orgA.user_token,
        body: { grace_period_seconds: grace },
      });
      expectError(bad, 400, "invalid_request");
    }
    const support = await call("POST", `${keysOf(orgA)}/${res.body.key_id}/roll`, {
      auth: ctx().supportA.user_token,
      body: { grace_period_seconds: 0 },
    });
    expectError(support, 403, "forbidden");
    // 0: the old key is revoked at once; a revoked key cannot be rolled.
    const now = await call("POST", `${keysOf(orgA)}/${res.body.key_id}/roll`, {
      auth: orgA.user_token,
      body: { grace_period_seconds: 0 },
    });
    expect(now.status).toBe(201);
    expectError(await call("GET", path, { auth: res.body.key }), 401, "unauthorized");
    expect((await call("GET", path, { auth: now.body.key })).status).toBe(200);
  });

  it.runIf(onPostgres)(
    "after the grace the old key is refused, and the worker revokes it with an audit row by the system",
    async () => {
      const { orgA } = ctx();
      const agent = await createAgent(orgA);
      const old = await mint({});
      const rolled = await call("POST", `${keysOf(orgA)}/${old.key_id}/roll`, {
        auth: orgA.user_token,
        body: { grace_period_seconds: 3600 },
      });
      const path = `/api/agents/${agent.agent_id}/sessions`;
      expect((await call("GET", path, { auth: old.key })).status).toBe(200);
      // The grace ends now: moved into the past in the database.
      await sql(`UPDATE access_keys SET revoke_at = now()::timestamp(3) - interval '1 second' WHERE id = $1`, [
        old.key_id,
      ]);
      const refused = await eventually(
        () => call("GET", path, { auth: old.key }),
        (r) => r.status === 401,
        5000,
      );
      expectError(refused, 401, "unauthorized");
      expect((await call("GET", path, { auth: rolled.body.key })).status).toBe(200);
      const rows = await eventually(
        () =>
          sql(`SELECT actor_type, data FROM audit_events WHERE target_id = $1 AND action = 'access_key.revoked'`, [
            old.key_id,
          ]),
        (r) => r.length > 0,
        60_000,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].actor_type).toBe("system");
      const [row] = await sql(`SELECT revoked_at, revoke_at FROM access_keys WHERE id = $1`, [old.key_id]);
      expect(row.revoked_at).toEqual(row.revoke_at);
    },
  );
});

describe("agent scope", () => {
  const strip = (text: string) => text.replace(/req_[0-9A-Za-z]+/g, "req_X");

  it("another agent answers byte for byte what another organization's agent answers, on every public route", async () => {
    const { orgA, orgB } = ctx();
    const inScope = {
      conversational: (await createAgent(orgA)).agent_id,
      workflow: (await createAgent(orgA, SIMPLE_WORKFLOW)).agent_id,
    };
    const outOfScope = {
      conversational: (await createAgent(orgA, { ...ECHO_AGENT, name: "outside" })).agent_id,
      workflow: (await createAgent(orgA, { ...SIMPLE_WORKFLOW, name: "outside wf" })).agent_id,
    };
    const foreign = {
      conversational: (await createAgent(orgB)).agent_id,
      workflow: (await createAgent(orgB, SIMPLE_WORKFLOW)).agent_id,
    };
    const scoped = await mint({ agent_ids: [inScope.conversational, inScope.workflow] });
    const whole = (await mintKey(orgA)).key;
    const routes = [
      ...ACCESS_KEY_ROUTES,
      {
        name: "tus create",
        method: "POST",
        path: (a: string) => `/api/agents/${a}/upload/tus`,
        headers: { "tus-resumable": "1.0.0", "upload-length": "3" },
      },
    ];
    for (const r of routes) {
      const kind = ("kind" in r && r.kind) || "conversational";
      const send = (agentId: string, auth: string) =>
        call(r.method, r.path(agentId), {
          auth,
          ...("body" in r && r.body !== undefined ? { body: r.body } : {}),
          ...("raw" in r && r.raw ? { raw: r.raw() } : {}),
          ...("headers" in r ? { headers: r.headers } : {}),
        });
      const outside = await send(outOfScope[kind], scoped.key);
      const otherOrg = await send(foreign[kind], whole);
      expect(outside.status, r.name).toBe(404);
      expect(strip(outside.text), r.name).toBe(strip(otherOrg.text).replace(foreign[kind], outOfScope[kind]));
      expect(outside.body.error.code, r.name).toBe("agent_not_found");
      // In scope, the key reaches the agent (whatever the route then answers, never agent_not_found).
      const inside = await send(inScope[kind], scoped.key);
      expect(inside.body?.error?.code, r.name).not.toBe("agent_not_found");
    }
  });

  it("a scope naming another organization's agent is refused", async () => {
    const { orgA, orgB } = ctx();
    const foreign = (await createAgent(orgB)).agent_id;
    const res = await call("POST", keysOf(orgA), { auth: orgA.user_token, body: { name: "x", agent_ids: [foreign] } });
    expectError(res, 400, "invalid_request");
    expect(res.body.error.details.fields[0].field).toBe("agent_ids");
  });
});

describe("change after mint", () => {
  it("PATCH changes name, limit, scope and expiry; the secret keeps working; audit rows hold before and after", async () => {
    const { orgA, orgB } = ctx();
    const a = (await createAgent(orgA)).agent_id;
    const b = (await createAgent(orgA)).agent_id;
    const key = await mint({});
    const expiresAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const res = await call("PATCH", `${keysOf(orgA)}/${key.key_id}`, {
      auth: orgA.user_token,
      body: { name: "renamed", rate_limit_per_minute: 30, agent_ids: [a], expires_at: expiresAt },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      name: "renamed",
      rate_limit_per_minute: 30,
      agent_ids: [a],
      expires_at: expiresAt,
    });
    expect(res.text).not.toContain(key.key);
    expect((await call("GET", `/api/agents/${a}/sessions`, { auth: key.key })).status).toBe(200);
    expectError(await call("GET", `/api/agents/${b}/sessions`, { auth: key.key }), 404, "agent_not_found");
    // Back to every agent, no own limit, no expiry.
    const cleared = await call("PATCH", `${keysOf(orgA)}/${key.key_id}`, {
      auth: orgA.user_token,
      body: { agent_ids: null, rate_limit_per_minute: null, expires_at: null },
    });
    expect(cleared.body).toMatchObject({ agent_ids: null, rate_limit_per_minute: null, expires_at: null });
    const reached = await eventually(
      () => call("GET", `/api/agents/${b}/sessions`, { auth: key.key }),
      (r) => r.status === 200,
      5000,
    );
    expect(reached.status).toBe(200);

    expectError(
      await call("PATCH", `${keysOf(orgA)}/${key.key_id}`, { auth: orgA.user_token, body: {} }),
      400,
      "invalid_request",
    );
    expectError(
      await call("PATCH", `${keysOf(orgB)}/${key.key_id}`, { auth: orgB.user_token, body: { name: "x" } }),
      404,
      "access_key_not_found",
    );
    expectError(
      await call("PATCH", `${keysOf(orgA)}/${key.key_id}`, { auth: ctx().supportA.user_token, body: { name: "x" } }),
      403,
      "forbidden",
    );
    if (onPostgres) {
      const rows = await sql(
        `SELECT data FROM audit_events WHERE target_id = $1 AND action = 'access_key.updated' ORDER BY created_at`,
        [key.key_id],
      );
      expect(rows.map((r) => r.data)).toEqual([
        {
          name: "renamed",
          before: { name: "life", rate_limit_per_minute: null, agent_ids: null, expires_at: null },
          after: { name: "renamed", rate_limit_per_minute: 30, agent_ids: [a], expires_at: expiresAt },
        },
        {
          name: "renamed",
          before: { rate_limit_per_minute: 30, agent_ids: [a], expires_at: expiresAt },
          after: { rate_limit_per_minute: null, agent_ids: null, expires_at: null },
        },
      ]);
    }
  });
});

describe("usage preview", () => {
  let agent: string;
  let key: { key_id: string; key: string };
  beforeAll(async () => {
    agent = (await createAgent(ctx().orgA)).agent_id;
    key = await mint({});
  });

  it("counts the key's requests, sessions, agents and end users; another organization cannot read it", async () => {
    const { orgA, orgB } = ctx();
    const empty = await call("GET", `${keysOf(orgA)}/${key.key_id}/usage-preview`, { auth: orgA.user_token });
    expect(empty.body).toMatchObject({ requests_24h: { count: 0, capped: false }, last_request_at: null, agents: [] });
    const first = await call("POST", `/api/agents/webhook/${agent}`, {
      auth: key.key,
      body: { message: "hi", user_id: "customer-1" },
    });
    expect(first.status, first.text).toBe(200);
    await call("POST", `/api/agents/webhook/${agent}`, {
      auth: key.key,
      body: { message: "again", session_id: first.body.session_id, user_id: "customer-1" },
    });
    await call("POST", `/api/agents/webhook/${agent}`, {
      auth: key.key,
      body: { message: "hi", user_id: "customer-2" },
    });
    // Support may look (read access).
    const res = await call("GET", `${keysOf(orgA)}/${key.key_id}/usage-preview`, { auth: ctx().supportA.user_token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      key_id: key.key_id,
      requests_24h: { count: 3, capped: false },
      requests_7d: { count: 3, capped: false },
      agents: [{ agent_id: agent }],
      user_ids: ["customer-1", "customer-2"],
      more_user_ids: false,
      sessions_started: { count: 2, capped: false },
      runs_started: { count: 0, capped: false },
    });
    expect(Date.now() - Date.parse(res.body.last_request_at)).toBeLessThan(10 * 60_000);

    expectError(
      await call("GET", `${keysOf(orgB)}/${key.key_id}/usage-preview`, { auth: orgB.user_token }),
      404,
      "access_key_not_found",
    );
    const crossed = await call("GET", `${keysOf(orgA)}/${key.key_id}/usage-preview`, { auth: orgB.user_token });
    expect(crossed.status).toBeGreaterThanOrEqual(403);
    expect(crossed.text).not.toContain("customer-1");
  });
});
