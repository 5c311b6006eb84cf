// Crash under load: asynchronous conversational triggers, `concurrency` at a time, with a
// workflow run trigger every so often, while the server (and, on PostgreSQL, the standalone worker
// beside it) is SIGKILLed and started again. Where the kills land is drawn from a printed seed; the
// invariants hold wherever they land:
// - a trigger that got a 2xx has exactly one user message and one assistant reply, ended completed
//   or error; a trigger that got no answer left nothing or the same complete record;
// - every run (answered or not) ends completed with exact counts, one item row per item, and an
//   output with every item exactly once: nothing lost, nothing processed into the output twice.
// Replies in flight at a kill are taken over once their lease runs out; runs once their job's
// heartbeat lapses (the short settings below keep that to seconds).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshTarget } from "../api/server";
import {
  accepted,
  auditConversations,
  auditRuns,
  backOff,
  killPoints,
  listRuns,
  LoadClient,
  mixedTrigger,
  openSessions,
  pacedWorkflow,
  rng,
  runLoad,
  runOutputs,
  sessionMessages,
  settleLoad,
  slowEcho,
  snapshot,
  stackOn,
  tally,
  type ApiMessage,
  type ApiRun,
  type DbSnapshot,
  type MixedLoad,
  type Sent,
  type Stack,
} from "./crash-helpers";
import { scale } from "./scale";

const SIZE = scale({
  full: { triggers: 2000, kills: 2, sessions: 200, runEvery: 50, items: 60 },
  ci: { triggers: 200, kills: 1, sessions: 20, runEvery: 25, items: 40 },
});
const CONCURRENCY = 64;
const onPostgres = !!process.env.TEST_DATABASE_URL;

let stack: Stack | undefined;
let dispose: (() => Promise<void>) | undefined;
let load: MixedLoad;
let sent: Sent[] = [];
let db: DbSnapshot;
let apiMessages: Map<string, ApiMessage[]>;
let apiRuns: Map<string, { run: ApiRun; lines: string[] }>;

afterAll(async () => {
  await stack?.stop();
  await dispose?.();
});

beforeAll(async () => {
  const r = rng("crash-load");
  const fresh = await freshTarget("crash-load");
  dispose = fresh.dispose;
  stack = await stackOn(
    fresh.target,
    "crash-load",
    {
      REPLY_LEASE_SECONDS: "4",
      // The shortest heartbeat (10 s): a killed worker's run is taken up again after that.
      QUEUE_HEARTBEAT_SECONDS: "10",
      QUEUE_SUPERVISE_SECONDS: "1",
    },
    { separateWorker: true },
  );
  const s = stack;
  const key = await s.mintKey();
  const conversational = await s.createAgent(slowEcho());
  const workflow = await s.createAgent(pacedWorkflow(100));
  load = { key, conversational, workflow, sessions: [], items: SIZE.items };
  load.sessions = await openSessions(s, key, conversational, SIZE.sessions);

  // Kill points are trigger indexes as they are sent: past the first wave of CONCURRENCY (so that
  // replies and runs are under way), before the last few (so that load goes on after the restart).
  const points = killPoints(
    r,
    SIZE.kills,
    CONCURRENCY + Math.floor(SIZE.triggers * 0.1),
    Math.floor(SIZE.triggers * 0.9),
    Math.floor(SIZE.triggers / 5),
  );
  console.log(
    `[crash-load] ${SIZE.triggers} triggers (a run every ${SIZE.runEvery}, ${SIZE.items} items each) at concurrency ${CONCURRENCY}, ` +
      `${onPostgres ? "server + standalone worker" : "server"} killed at triggers ${points.join(", ")}`,
  );
  const client = new LoadClient(CONCURRENCY);
  let answered = 0;
  let chain: Promise<void> = Promise.resolve();
  const kills: Promise<void>[] = [];
  const started = Date.now();
  const trigger = mixedTrigger(load, SIZE.runEvery, client, () => s.baseUrl);
  sent = await runLoad({
    total: SIZE.triggers,
    concurrency: CONCURRENCY,
    task: async (i) => {
      const result = await trigger(i);
      if (result.answer.status !== undefined) answered++;
      await backOff(result.answer);
      return result;
    },
    before: (i) => {
      const k = points.indexOf(i);
      if (k < 0) return;
      chain = chain.then(async () => {
        const running = (await listRuns(s, load).catch(() => [])).filter((x) => x.status === "running").length;
        console.log(
          `[crash-load] kill ${k + 1} at trigger ${i} (${answered} answered so far, ${running} runs running)`,
        );
        await client.during(() => s.kill());
        const t = Date.now();
        await s.start();
        console.log(`[crash-load] restarted in ${Date.now() - t} ms`);
      });
      kills.push(chain);
    },
  });
  await Promise.all(kills);
  await client.close();
  console.log(`[crash-load] load done in ${Date.now() - started} ms:`, tally(sent));

  const t = Date.now();
  const { retries } = await settleLoad(s, load, scale({ full: 600_000, ci: 240_000 }));
  console.log(`[crash-load] settled in ${Date.now() - t} ms (${retries} run retries)`);
  apiMessages = await sessionMessages(s, load);
  apiRuns = await runOutputs(s, load);
  await s.stop(); // the embedded database allows one process: stop before reading it
  db = await snapshot(s.target, load);
  console.log(
    `[crash-load] replies taken over after their producer died: ${db.recovered.replies}; run jobs started again: ${db.recovered.runJobsRetried}`,
  );
}, 1_200_000);

describe(`crash under load: ${SIZE.triggers} async triggers at concurrency ${CONCURRENCY}, ${SIZE.kills} SIGKILL(s)${onPostgres ? " of the server and the standalone worker" : ""}`, () => {
  it("loses at most the triggers in flight at each kill, and accepts all the others", () => {
    const unanswered = sent.filter((s) => s.answer.status === undefined);
    expect(unanswered.length).toBeLessThanOrEqual(CONCURRENCY * SIZE.kills);
    // With nothing else failing, every answer is an acceptance (refused connections are re-sent).
    expect(sent.filter((s) => s.answer.status !== undefined && !accepted(s)).map((s) => [s.tag, s.answer])).toEqual([]);
  });

  it("every accepted trigger has exactly one user message and one terminal reply; an unanswered one nothing or all of it", () => {
    expect(auditConversations(sent, db, apiMessages, SIZE.sessions)).toEqual([]);
    const messages = sent.filter((s) => s.kind === "message");
    expect(db.messages.filter((m) => m.role === "user").length).toBeGreaterThanOrEqual(
      messages.filter(accepted).length + SIZE.sessions,
    );
  });

  it("every run ends completed with exact counts, and each item is in its output exactly once", () => {
    expect(auditRuns(sent, db, apiRuns, SIZE.items)).toEqual([]);
    expect(db.runs.length).toBeGreaterThanOrEqual(sent.filter((s) => s.kind === "run" && accepted(s)).length);
  });
});
