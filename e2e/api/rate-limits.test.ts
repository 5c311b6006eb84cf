// Per-Access-Key rate limits of the public API: RateLimit-* headers on every answer to a verified
// key, 429 rate_limited with Retry-After past the limit, the limit set per key when minting (management
// API and CLI), the default from RATE_LIMIT_PER_MINUTE, and on PostgreSQL one count shared by
// several server processes.
import http from "node:http";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { call, createAgent, ctx, expectError, type ApiResponse } from "./helpers";
import { admin, freshTarget, startServer, type RunningServer } from "./server";

const keysPath = (orgId: string) => `/api/v1/organizations/${orgId}/access-keys`;

function expectHeaders(res: ApiResponse, limit: number, remaining: number) {
  expect({
    limit: res.headers.get("ratelimit-limit"),
    remaining: res.headers.get("ratelimit-remaining"),
  }).toEqual({ limit: String(limit), remaining: String(remaining) });
  const reset = Number(res.headers.get("ratelimit-reset"));
  expect(Number.isInteger(reset) && reset >= 1 && reset <= 60, `RateLimit-Reset ${reset}`).toBe(true);
}

describe("per-key rate limits (shared server)", () => {
  it("counts down RateLimit-Remaining, then answers 429 rate_limited with Retry-After; other keys go on", async () => {
    const { orgA } = ctx();
    const agent = await createAgent(orgA);
    const minted = await call("POST", keysPath(orgA.organization_id), {
      auth: orgA.user_token,
      body: { name: "limited", permissions: ["agents:invoke"], rate_limit_per_minute: 5 },
    });
    expect(minted.status).toBe(201);
    expect(minted.body.rate_limit_per_minute).toBe(5);
    const key = minted.body.key as string;

    // Five requests; the fourth answers an error of its own, which still counts and still says so.
    const seen: ApiResponse[] = [];
    for (let i = 0; i < 5; i++) {
      const path =
        i === 3 ? `/api/agents/${agent.agent_id}/sessions/sess_doesnotexist` : `/api/agents/${agent.agent_id}/sessions`;
      seen.push(await call("GET", path, { auth: key }));
    }
    expect(seen.map((r) => r.status)).toEqual([200, 200, 200, 404, 200]);
    seen.forEach((r, i) => expectHeaders(r, 5, 4 - i));

    // The sixth: refused before anything is looked up or stored.
    const refused = await call("POST", `/api/agents/webhook/${agent.agent_id}`, {
      auth: key,
      body: { message: "one too many" },
    });
    expectError(refused, 429, "rate_limited");
    expectHeaders(refused, 5, 0);
    expect(refused.headers.get("retry-after")).toBe(refused.headers.get("ratelimit-reset"));
    expect(refused.body.error.details).toMatchObject({
      limit_per_minute: 5,
      retry_after_seconds: Number(refused.headers.get("retry-after")),
    });

    // Another key of the same organization is unaffected, and sees that the refused trigger stored nothing.
    const other = await call("POST", keysPath(orgA.organization_id), {
      auth: orgA.user_token,
      body: { name: "unlimited neighbour" },
    });
    expect(other.body.rate_limit_per_minute).toBeNull();
    const listed = await call("GET", `/api/agents/${agent.agent_id}/sessions`, { auth: other.body.key });
    expect(listed.status).toBe(200);
    expect(listed.body.sessions).toEqual([]);
    // The test server's default (e2e/api/server.ts), far above what the suites send.
    expectHeaders(listed, 1_000_000, 999_999);

    // The list names each key's own limit and the default of the others.
    const list = await call("GET", keysPath(orgA.organization_id), { auth: orgA.user_token });
    expect(list.body.default_rate_limit_per_minute).toBe(1_000_000);
    const byId = new Map(list.body.access_keys.map((k: any) => [k.key_id, k.rate_limit_per_minute]));
    expect([byId.get(minted.body.key_id), byId.get(other.body.key_id)]).toEqual([5, null]);
  });

  it("refuses limits that are not whole numbers from 1 to 1,000,000; null is the default", async () => {
    const { orgA } = ctx();
    for (const bad of [0, -1, 1.5, "5", 1_000_001]) {
      const res = await call("POST", keysPath(orgA.organization_id), {
        auth: orgA.user_token,
        body: { name: "bad limit", rate_limit_per_minute: bad },
      });
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.fields.map((f: any) => f.field)).toEqual(["rate_limit_per_minute"]);
    }
    const res = await call("POST", keysPath(orgA.organization_id), {
      auth: orgA.user_token,
      body: { name: "null limit", rate_limit_per_minute: null },
    });
    expect(res.status).toBe(201);
    expect(res.body.rate_limit_per_minute).toBeNull();
  });

  it("says nothing about limits to a caller whose key was not verified", async () => {
    const agent = await createAgent(ctx().orgA);
    const res = await call("GET", `/api/agents/${agent.agent_id}/sessions`, { auth: `ak_${"x".repeat(43)}` });
    expectError(res, 401, "unauthorized");
    expect(res.headers.get("ratelimit-limit")).toBeNull();
  });
});

/** A GET on a new connection each time: node:cluster hands connections to its processes in turn. */
function getOnNewConnection(url: string, key: string): Promise<{ status: number; remaining: string | null }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({ status: res.statusCode!, remaining: (res.headers["ratelimit-remaining"] as string) ?? null }),
      );
    });
    req.on("error", reject);
  });
}

describe("default limit, the CLI, and several processes", () => {
  const onPostgres = !!process.env.TEST_DATABASE_URL;
  let server: RunningServer | undefined;
  let dispose: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await dispose?.();
  });

  it(
    `a default key gets 600 a minute; a CLI-minted limit of 5 holds across ${onPostgres ? "two processes" : "one process"}`,
    { timeout: 300_000 },
    async () => {
      const fresh = await freshTarget("ratelimit");
      dispose = fresh.dispose;
      const { target } = fresh;
      const org = await admin(target, [
        "bootstrap",
        "--org",
        "limits",
        "--email",
        "limits@example.com",
        "--password",
        "correct horse battery",
      ]);
      // The CLI refuses a limit out of range and mints with one in range (before the server
      // starts: the embedded database allows one process).
      await expect(
        admin(target, ["mint-key", "--org", org.organization_id!, "--name", "zero", "--rate-limit", "0"]),
      ).rejects.toThrow(/rate_limit_per_minute/);
      const cliKey = await admin(target, [
        "mint-key",
        "--org",
        org.organization_id!,
        "--name",
        "cli limited",
        "--rate-limit",
        "5",
      ]);
      expect(cliKey.rate_limit_per_minute).toBe(5);

      // RATE_LIMIT_PER_MINUTE set but empty is the built-in default, 600.
      server = await startServer(target, {
        SEED_DEMO: "false",
        RATE_LIMIT_PER_MINUTE: "",
        WEB_CONCURRENCY: onPostgres ? "2" : "1",
      });
      const base = server.baseUrl;
      const json = async (method: string, path: string, auth: string, body?: unknown) => {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: { authorization: `Bearer ${auth}`, ...(body ? { "content-type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: res.status, headers: res.headers, body: await res.json(), text: "" } as ApiResponse;
      };
      const agent = await json("POST", `/api/v1/organizations/${org.organization_id}/agents`, org.user_token!, {
        name: "echo",
        kind: "conversational",
        runtime: { type: "echo" },
      });
      expect(agent.status).toBe(201);
      const sessions = `/api/agents/${agent.body.agent_id}/sessions`;

      const defaultKey = await json("POST", keysPath(org.organization_id!), org.user_token!, { name: "default" });
      const first = await json("GET", sessions, defaultKey.body.key);
      expect(first.status).toBe(200);
      expectHeaders(first, 600, 599);

      // Ten requests at once, each on its own connection (so spread over the processes on
      // PostgreSQL): exactly five pass, each seeing a different remainder.
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => getOnNewConnection(`${base}${sessions}`, cliKey.key!)),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429, 429]);
      expect(
        answers
          .filter((a) => a.status === 200)
          .map((a) => a.remaining)
          .sort(),
      ).toEqual(["0", "1", "2", "3", "4"]);
      expect(answers.filter((a) => a.status === 429).map((a) => a.remaining)).toEqual(["0", "0", "0", "0", "0"]);

      if (onPostgres) {
        // Each process asks the database until it sees the key over its limit, then refuses it
        // from memory. A key of 1 a minute, six requests in turn on new connections (the primary
        // hands them to the two processes alternately): 1 allowed, then one refusal per process
        // reaches the database. A count of 2 shows that both processes served and then stopped
        // asking; 6 would mean no in-memory block, 1 that one process served everything.
        const one = await json("POST", keysPath(org.organization_id!), org.user_token!, {
          name: "one a minute",
          rate_limit_per_minute: 1,
        });
        const statuses = [];
        for (let i = 0; i < 6; i++)
          statuses.push((await getOnNewConnection(`${base}${sessions}`, one.body.key)).status);
        expect(statuses).toEqual([200, 429, 429, 429, 429, 429]);
        const db = new pg.Client({ connectionString: target.databaseUrl });
        await db.connect();
        try {
          const { rows } = await db.query("SELECT points FROM rate_limits WHERE key = $1", [`ak:${one.body.key_id}`]);
          expect(rows).toEqual([{ points: 2 }]);
        } finally {
          await db.end();
        }
      }
    },
  );
});
