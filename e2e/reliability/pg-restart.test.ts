// PostgreSQL restart mid-load: the database crashes (`pg_ctl stop -m immediate`: every
// connection cut, no checkpoint) while asynchronous triggers and workflow runs arrive, and starts
// again a little later. The server is not restarted: /api/health and /api/ready answer 503 while
// the database is down and 200 again by themselves; every request gets an answer (accepted, or 503
// with Retry-After while the database is away: the load's callers then pause), and nothing that was
// accepted is lost: every accepted trigger ends with its reply, every run completes with exact
// counts. The database is a private cluster (initdb on a free port), never the machine's shared
// server. PostgreSQL pass only: the embedded database lives inside the server process and cannot be
// restarted apart from it.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accepted,
  auditConversations,
  auditRuns,
  backOff,
  LoadClient,
  mixedTrigger,
  openSessions,
  pacedWorkflow,
  privatePostgres,
  rng,
  runLoad,
  runOutputs,
  sessionMessages,
  settle,
  settleLoad,
  slowEcho,
  snapshot,
  stackOn,
  tally,
  type ApiMessage,
  type ApiRun,
  type DbSnapshot,
  type MixedLoad,
  type PrivateCluster,
  type Sent,
  type Stack,
} from "./crash-helpers";
import { scale } from "./scale";

const SIZE = scale({
  full: { triggers: 1000, sessions: 100, runEvery: 50, items: 40 },
  ci: { triggers: 200, sessions: 20, runEvery: 25, items: 30 },
});
const CONCURRENCY = 32;
/** Answers to collect while the database is down before it starts again. */
const ANSWERS_DURING_OUTAGE = 10;
const onPostgres = !!process.env.TEST_DATABASE_URL;

let cluster: PrivateCluster | undefined;
let stack: Stack | undefined;
let tmp: string | undefined;
let load: MixedLoad;
let sent: Sent[] = [];
const probes = { healthDown: false, readyDown: false, healthUp: false, readyUp: false, sameProcess: false };
let duringOutage = new Set<number>();
let db: DbSnapshot;
let apiMessages: Map<string, ApiMessage[]>;
let apiRuns: Map<string, { run: ApiRun; lines: string[] }>;

afterAll(async () => {
  await stack?.stop();
  await cluster?.dispose();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe.runIf(onPostgres)(
  `PostgreSQL restart mid-load (PostgreSQL pass only, when TEST_DATABASE_URL is set): ${SIZE.triggers} async triggers at concurrency ${CONCURRENCY}`,
  () => {
    beforeAll(async () => {
      const r = rng("pg-restart");
      cluster = await privatePostgres("restart");
      tmp = mkdtempSync(path.join(os.tmpdir(), "awhs-pg-restart-"));
      stack = await stackOn({ dataDir: path.join(tmp, "data"), databaseUrl: cluster.url }, "pg-restart", {
        REPLY_LEASE_SECONDS: "4",
        QUEUE_HEARTBEAT_SECONDS: "10",
        QUEUE_SUPERVISE_SECONDS: "1",
      });
      const s = stack;
      const c = cluster;
      const pid = s.server.proc.pid;
      const key = await s.mintKey();
      const conversational = await s.createAgent(slowEcho());
      const workflow = await s.createAgent(pacedWorkflow(50));
      load = { key, conversational, workflow, sessions: [], items: SIZE.items };
      load.sessions = await openSessions(s, key, conversational, SIZE.sessions);

      const outageAt = r.int(Math.floor(SIZE.triggers * 0.2), Math.floor(SIZE.triggers * 0.5));
      console.log(
        `[pg-restart] ${SIZE.triggers} triggers at concurrency ${CONCURRENCY}; PostgreSQL crashes at trigger ${outageAt}`,
      );
      const client = new LoadClient(CONCURRENCY);
      let down = false;
      const answeredDown = new Set<number>();
      let outage: Promise<void> = Promise.resolve();
      const status = async (probe: string) => (await fetch(`${s.baseUrl}/api/${probe}`)).status;
      const trigger = mixedTrigger(load, SIZE.runEvery, client, () => s.baseUrl);
      sent = await runLoad({
        total: SIZE.triggers,
        concurrency: CONCURRENCY,
        task: async (i) => {
          const result = await trigger(i);
          if (down) answeredDown.add(i);
          await backOff(result.answer);
          return result;
        },
        before: (i) => {
          if (i !== outageAt) return;
          outage = (async () => {
            await c.stop("immediate");
            down = true;
            const t = Date.now();
            probes.healthDown = await settle(async () => (await status("health")) === 503, 30_000, 100);
            probes.readyDown = await settle(async () => (await status("ready")) === 503, 30_000, 100);
            // Let the load meet the outage before the database comes back.
            await settle(async () => answeredDown.size >= ANSWERS_DURING_OUTAGE, 30_000, 100);
            await c.start();
            down = false;
            console.log(
              `[pg-restart] PostgreSQL was down ${Date.now() - t} ms (${answeredDown.size} answers meanwhile)`,
            );
            const u = Date.now();
            probes.healthUp = await settle(async () => (await status("health")) === 200, 120_000, 200);
            probes.readyUp = await settle(async () => (await status("ready")) === 200, 120_000, 200);
            console.log(`[pg-restart] health and ready 200 again ${Date.now() - u} ms after the start`);
          })();
        },
      });
      await outage;
      await client.close();
      duringOutage = answeredDown;
      probes.sameProcess = s.server.proc.pid === pid && s.server.proc.exitCode === null;
      console.log(`[pg-restart] load done:`, tally(sent));

      const t = Date.now();
      const { retries } = await settleLoad(s, load, scale({ full: 600_000, ci: 240_000 }));
      console.log(`[pg-restart] settled in ${Date.now() - t} ms (${retries} run retries)`);
      apiMessages = await sessionMessages(s, load);
      apiRuns = await runOutputs(s, load);
      await s.stop();
      db = await snapshot(s.target, load);
      console.log(
        `[pg-restart] replies taken over after their producer died: ${db.recovered.replies}; run jobs started again: ${db.recovered.runJobsRetried}`,
      );
    }, 1_200_000);

    it("/api/health and /api/ready answer 503 while PostgreSQL is down and 200 again by themselves, in the same server process", () => {
      expect(probes).toEqual({ healthDown: true, readyDown: true, healthUp: true, readyUp: true, sameProcess: true });
    });

    it("every request gets an answer: accepted, or while the database is away 503 service_unavailable with Retry-After", () => {
      expect(sent.filter((x) => x.answer.status === undefined).map((x) => [x.tag, x.answer.error])).toEqual([]);
      const refused = sent.filter((x) => !accepted(x));
      for (const x of refused) {
        expect([x.answer.status, x.answer.body?.error?.code], x.tag).toEqual([503, "service_unavailable"]);
        expect(x.answer.body.error.request_id, x.tag).toMatch(/^req_/);
        expect(x.answer.retryAfter, x.tag).toBeGreaterThan(0);
      }
      console.log(
        `[pg-restart] refused: ${JSON.stringify(tally(refused))}; ${refused.filter((x) => duringOutage.has(x.i)).length} of them answered during the outage`,
      );
    });

    it("every accepted trigger has exactly one user message and one terminal reply; a refused one left nothing or all of it", () => {
      expect(auditConversations(sent, db, apiMessages, SIZE.sessions)).toEqual([]);
    });

    it("every run ends completed with exact counts, and each item is in its output exactly once", () => {
      expect(auditRuns(sent, db, apiRuns, SIZE.items)).toEqual([]);
      expect(db.runs.length).toBeGreaterThanOrEqual(sent.filter((x) => x.kind === "run" && accepted(x)).length);
    });
  },
);
