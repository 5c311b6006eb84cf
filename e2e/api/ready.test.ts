// GET /api/ready (lib/readiness.ts): 200 with its checks while the database answers and the queue is
// started (a server without an in-process worker starts it), 503 in the envelope, naming the check
// that failed, while PostgreSQL refuses connections, and 200 again after.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { call, expectError } from "./helpers";
import { ownServer, type OwnServer } from "./server";

let own: OwnServer | undefined;
afterAll(() => own?.dispose());

const READY = { status: "ready", checks: { database: "ok", queue: "ok" } };

describe("ready", () => {
  it("is 200 with its checks on the test server, and never cached", async () => {
    const res = await call("GET", "/api/ready");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(READY);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "starts the queue of a server without a worker; 503 naming the database while PostgreSQL refuses connections, 200 after",
    { timeout: 300_000 },
    async () => {
      own = await ownServer("ready", { RUN_WORKER: "false" });
      const base = own.server.baseUrl;
      // The first probe starts the queue (pg-boss creates its schema): it may take more than the 2 s a probe waits.
      let first = await fetch(`${base}/api/ready`);
      for (let i = 0; i < 60 && first.status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 500));
        first = await fetch(`${base}/api/ready`);
      }
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual(READY);

      const name = new URL(own.target.databaseUrl!).pathname.slice(1);
      const adminDb = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await adminDb.connect();
      try {
        await adminDb.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
        await adminDb.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [name]);
        const down = await fetch(`${base}/api/ready`);
        const body = await down.json();
        expectError({ status: down.status, headers: down.headers, body, text: "" }, 503, "service_unavailable");
        expect(["failed", "timeout"]).toContain(body.error.details.checks.database);
        expect(body.error.message).toMatch(/^Not ready: database /);
        await adminDb.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
        const up = await fetch(`${base}/api/ready`);
        expect(up.status).toBe(200);
        expect(await up.json()).toEqual(READY);
      } finally {
        await adminDb.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => {});
        await adminDb.end();
      }
    },
  );
});
