// Several server processes on one port (WEB_CONCURRENCY, PostgreSQL only): every process serves,
// replies and runs complete, a revoked key is refused everywhere within the cache bound, and
// SIGTERM stops them all.
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { ECHO_AGENT, SIMPLE_WORKFLOW } from "./helpers";
import { ownServer, type OwnServer } from "./server";

let own: OwnServer | undefined;
afterAll(() => own?.dispose());

/** Server processes forked by the primary (node:cluster workers run dist/server.mjs too). */
function workerPids(primary: number): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, "utf8");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        const cmd = readFileSync(`/proc/${d}/cmdline`, "utf8");
        return ppid === primary && cmd.includes("/server.mjs") ? [Number(d)] : [];
      } catch {
        return [];
      }
    });
}

describe.runIf(!!process.env.TEST_DATABASE_URL)("WEB_CONCURRENCY=2 on PostgreSQL", () => {
  it(
    "serves from two processes: replies, runs, revocation and shutdown behave as on one",
    { timeout: 300_000 },
    async () => {
      own = await ownServer("cluster", { WEB_CONCURRENCY: "2", KEY_CACHE_TTL_MS: "2000" });
      const o = own;
      expect(workerPids(o.server.proc.pid!)).toHaveLength(2);
      const key = await o.mintKey();
      const echo = await o.createAgent(ECHO_AGENT);
      const wf = await o.createAgent(SIMPLE_WORKFLOW);

      const replies = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          o.call("POST", `/api/agents/webhook/${echo}`, { auth: key, body: { message: `hello ${i}` } }),
        ),
      );
      expect(replies.map((r) => r.status)).toEqual(Array(40).fill(200));
      expect(replies.map((r) => r.body.response).sort()).toEqual(
        Array.from({ length: 40 }, (_, i) => `Echo: hello ${i}`).sort(),
      );

      const runs = await Promise.all(
        Array.from({ length: 6 }, () =>
          o.call("POST", `/api/agents/webhook/${wf}`, { auth: key, body: { rows: [{ a: 1 }, { a: 2 }] } }),
        ),
      );
      for (const r of runs) {
        let run = await o.call("GET", `/api/agents/${wf}/runs/${r.body.run_id}`, {
          auth: key,
          headers: { prefer: "wait=10" },
        });
        for (let i = 0; i < 30 && run.body.status !== "completed"; i++)
          run = await o.call("GET", `/api/agents/${wf}/runs/${r.body.run_id}`, {
            auth: key,
            headers: { prefer: "wait=5" },
          });
        expect(run.body).toMatchObject({ status: "completed", item_counts: { completed: 2, total: 2 } });
      }

      // Warm the key in both processes' caches, revoke it, then after the cache bound every process refuses it.
      const keysPath = `/api/v1/organizations/${o.org.organization_id}/access-keys`;
      const minted = await o.call("POST", keysPath, {
        auth: o.org.user_token,
        body: { name: "revocable", permissions: ["agents:invoke"] },
      });
      const revocable = minted.body.key as string;
      for (let i = 0; i < 10; i++)
        expect((await o.call("GET", `/api/agents/${echo}/sessions`, { auth: revocable })).status).toBe(200);
      expect((await o.call("DELETE", `${keysPath}/${minted.body.key_id}`, { auth: o.org.user_token })).status).toBe(
        200,
      );
      await new Promise((r) => setTimeout(r, 2_100));
      for (let i = 0; i < 10; i++)
        expect((await o.call("GET", `/api/agents/${echo}/sessions`, { auth: revocable })).status).toBe(401);

      const primary = o.server.proc.pid!;
      const pids = workerPids(primary);
      await o.server.stop("SIGTERM");
      for (const pid of [primary, ...pids]) expect(() => process.kill(pid, 0)).toThrow();
    },
  );
});
