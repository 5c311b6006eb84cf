// Access Key lifecycle through HTTP (docs/api.md, Access Keys and Authentication): mint, use, list, revoke, refused within 5 s on
// every instance; only hashes in the database.
import { createHash } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { call, createAgent, ctx, expectError, listAll, mintKey, revokeKey } from "./helpers";
import { startServer, type RunningServer } from "./server";

const sessionsOf = (agent: string) => `/api/agents/${agent}/sessions`;

async function refusedWithin(baseUrl: string, path: string, key: string, limitMs: number) {
  const started = Date.now();
  for (;;) {
    const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    if (res.status === 401) return Date.now() - started;
    if (Date.now() - started > limitMs) return Infinity;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const extra: RunningServer[] = [];
afterAll(async () => {
  for (const s of extra) await s.stop();
});

describe("access key lifecycle", () => {
  it("mint -> use -> list shows last use, no secret -> revoke -> refused within 5 s", async () => {
    const { orgA, baseUrl } = ctx();
    const agent = await createAgent(orgA);
    const key = await mintKey(orgA, ["agents:invoke"], "lifecycle");
    const used = await call("GET", sessionsOf(agent.agent_id), { auth: key.key });
    expect(used.status).toBe(200);

    let listed: any;
    for (let i = 0; i < 20 && !listed?.last_used_at; i++) {
      const list = await listAll(
        `/api/v1/organizations/${orgA.organization_id}/access-keys`,
        "access_keys",
        orgA.user_token,
      );
      expect(list.text).not.toContain(key.key);
      listed = list.rows.find((k: any) => k.key_id === key.key_id);
      if (!listed.last_used_at) await new Promise((r) => setTimeout(r, 100));
    }
    expect(Date.parse(listed.last_used_at)).not.toBeNaN();

    await revokeKey(orgA, key.key_id);
    const elapsed = await refusedWithin(baseUrl, sessionsOf(agent.agent_id), key.key, 5000);
    expect(elapsed).toBeLessThan(5000);
    expectError(await call("GET", sessionsOf(agent.agent_id), { auth: key.key }), 401, "unauthorized");
  });

  it.runIf(!!ctx().target.databaseUrl)(
    "a second instance on the same PostgreSQL database refuses a revoked key within 5 s, despite its cache",
    async () => {
      const { orgA, target } = ctx();
      const other = await startServer(target, { RUN_WORKER: "false", SEED_DEMO: "false", KEY_CACHE_TTL_MS: "2000" });
      extra.push(other);
      const agent = await createAgent(orgA);
      const key = await mintKey(orgA);
      const warm = await fetch(`${other.baseUrl}${sessionsOf(agent.agent_id)}`, {
        headers: { authorization: `Bearer ${key.key}` },
      });
      expect(warm.status).toBe(200); // now cached on the other instance
      await revokeKey(orgA, key.key_id);
      expect(await refusedWithin(other.baseUrl, sessionsOf(agent.agent_id), key.key, 5000)).toBeLessThan(5000);
    },
  );

  it.runIf(!!ctx().target.databaseUrl)("the database holds only the SHA-256 of a key", async () => {
    const { orgA, target } = ctx();
    const key = await mintKey(orgA);
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query("SELECT * FROM access_keys WHERE id = $1", [key.key_id]);
      expect(rows[0].key_hash).toBe(createHash("sha256").update(key.key).digest("hex"));
      expect(JSON.stringify(rows)).not.toContain(key.key);
    } finally {
      await client.end();
    }
  });
});
