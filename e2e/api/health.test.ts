// GET /api/health: 200 while the database answers, 503 when it does not (PostgreSQL: the embedded
// database lives inside the server process and cannot be taken away from it).
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { call } from "./helpers";
import { ownServer, type OwnServer } from "./server";

let own: OwnServer | undefined;
afterAll(() => own?.dispose());

describe("health", () => {
  it("is 200 {status: ok} on the test server", async () => {
    const res = await call("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "is 503 in the envelope while PostgreSQL refuses connections, 200 again after",
    async () => {
      own = await ownServer("health", { RUN_WORKER: "false" });
      const server = own.server;
      const name = new URL(own.target.databaseUrl!).pathname.slice(1);
      const adminDb = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await adminDb.connect();
      try {
        await adminDb.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
        await adminDb.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [name]);
        const down = await fetch(`${server.baseUrl}/api/health`);
        expect(down.status).toBe(503);
        expect((await down.json()).error.code).toBe("service_unavailable");
        await adminDb.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
        const up = await fetch(`${server.baseUrl}/api/health`);
        expect(up.status).toBe(200);
      } finally {
        await adminDb.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => {});
        await adminDb.end();
      }
    },
  );
});
