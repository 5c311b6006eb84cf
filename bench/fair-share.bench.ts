// Fair share between organizations (docs/security.md T-SHARE): organization B's synchronous trigger
// latency and the time its short run takes, idle and while organization A floods the same server
// with slow replies (async triggers at a steady rate to an agent that takes 30 s a reply) and long
// runs (more than the worker has slots). Run twice: with the default fair-share settings, and with
// them off (an organization may take every reply and worker slot), as the baseline.
// Env: BENCH_FAIR_TRIGGERS (B's triggers per phase, default 300), BENCH_FAIR_RATE (A's triggers a
// second, default 100), BENCH_FAIR_RUNS (A's long runs, default 20), BENCH_FAIR_ITEM_MS (the wait of
// each of their 5,000 items, default 20), BENCH_FAIR_ONLY (on or off: one scenario); TEST_DATABASE_URL
// runs it on PostgreSQL. Needs a production build.
import { Worker } from "node:worker_threads";
import { agentOf, triggersOfB, twoOrgs, workflow, type Orgs } from "./two-orgs";

/** A's flood: async triggers at `rate` a second until told to stop; answers the count of each status. */
const FLOOD = `
const { parentPort, workerData } = require("node:worker_threads");
const { url, key, rate } = workerData;
const statuses = {};
let flooding = true;
const inFlight = new Set();
parentPort.on("message", () => (flooding = false));
(async () => {
  const t0 = performance.now();
  let sent = 0;
  while (flooding) {
    while (sent < ((performance.now() - t0) / 1000) * rate) {
      sent++;
      const p = fetch(url, {
        method: "POST",
        headers: { authorization: "Bearer " + key, "content-type": "application/json", prefer: "respond-async" },
        body: JSON.stringify({ message: "flood" }),
      })
        .then(async (res) => { await res.arrayBuffer(); statuses[res.status] = (statuses[res.status] || 0) + 1; })
        .catch(() => { statuses[0] = (statuses[0] || 0) + 1; })
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await Promise.all(inFlight);
  parentPort.postMessage(statuses);
  parentPort.close();
})();
`;

const RUN_BUDGET_MS = 120_000;

/** Milliseconds from B's trigger of a one-item run to its completion (Infinity past RUN_BUDGET_MS). */
async function runOfB(o: Orgs, agent: string) {
  const t = performance.now();
  const started = await o.own.call("POST", `/api/agents/webhook/${agent}`, { auth: o.keyB, body: { rows: [{}] } });
  for (;;) {
    const run = await o.own.call("GET", `/api/agents/${agent}/runs/${started.body.run_id}`, { auth: o.keyB });
    if (run.body.status === "completed") return performance.now() - t;
    if (performance.now() - t > RUN_BUDGET_MS) return Infinity;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function scenario(label: string, env: Record<string, string>) {
  const amount = Number(process.env.BENCH_FAIR_TRIGGERS ?? 300);
  const rate = Number(process.env.BENCH_FAIR_RATE ?? 100);
  const o = await twoOrgs(`fair-${label}`, env);
  try {
    const echoB = await agentOf(o, o.b, { name: "echo", kind: "conversational", runtime: { type: "echo" } });
    const shortB = await agentOf(o, o.b, workflow([{ id: "t", type: "transform", expression: "item" }]));
    const slowA = await agentOf(o, o.own.org, {
      name: "slow",
      kind: "conversational",
      runtime: { type: "echo", delay_ms: 30_000, timeout_ms: 60_000 },
    });
    const itemMs = Number(process.env.BENCH_FAIR_ITEM_MS ?? 20);
    const longA = await agentOf(o, o.own.org, workflow([{ id: "pace", type: "wait", ms: itemMs }]));

    await triggersOfB(o, echoB, 20); // warm-up
    const idle = await triggersOfB(o, echoB, amount);
    const idleRun = await runOfB(o, shortB);

    // A: long runs (by default 5 times the worker's slots), then async triggers at a steady rate.
    const rows = Array.from({ length: 5_000 }, (_, i) => ({ i }));
    for (let i = 0; i < Number(process.env.BENCH_FAIR_RUNS ?? 20); i++) {
      await o.own.call("POST", `/api/agents/webhook/${longA}`, { auth: o.keyA, body: { rows } });
    }
    // A's triggers come from a thread of their own, so that handling A's answers never delays the
    // measuring of B's (the measurement is B's round trip as B's client sees it).
    const flood = new Worker(FLOOD, {
      eval: true,
      workerData: { url: `${o.own.server.baseUrl}/api/agents/webhook/${slowA}`, key: o.keyA, rate },
    });
    const statuses = new Promise<Record<string, number>>((resolve) => flood.once("message", resolve));
    await new Promise((r) => setTimeout(r, 5_000)); // the slots fill up
    const loaded = await triggersOfB(o, echoB, amount);
    const loadedRun = await runOfB(o, shortB);
    flood.postMessage("stop");
    return { label, idle, loaded, idleRun, loadedRun, statuses: await statuses };
  } finally {
    await o.own.dispose();
  }
}

export default async function bench() {
  const only = process.env.BENCH_FAIR_ONLY;
  const results = [];
  if (only !== "off") results.push(await scenario("on", {}));
  if (only !== "on") {
    const unlimited = { ORG_REPLY_CONCURRENCY: "100000", ORG_REPLY_BACKLOG: "1000000", ORG_RUN_CONCURRENCY: "1000" };
    results.push(await scenario("off", unlimited));
  }
  const ms = (n: number) => (Number.isFinite(n) ? `${Math.round(n)} ms` : `over ${RUN_BUDGET_MS / 1000} s`);
  console.log(
    `database: ${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"}; B's sync triggers sequentially; A's async triggers at ${process.env.BENCH_FAIR_RATE ?? 100}/s to a 30 s agent, and ${process.env.BENCH_FAIR_RUNS ?? 20} runs of 5,000 items of ${process.env.BENCH_FAIR_ITEM_MS ?? 20} ms`,
  );
  console.log(
    "| fair share | B p50 idle | B p50 under A's flood | ratio | B p99 idle / flood | B triggers (failed) idle / flood | B's run idle / flood | A's answers |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const r of results) {
    console.log(
      `| ${r.label} | ${r.idle.p50.toFixed(1)} ms | ${r.loaded.p50.toFixed(1)} ms | ${(r.loaded.p50 / r.idle.p50).toFixed(2)}x | ${Math.round(r.idle.p99)} / ${Math.round(r.loaded.p99)} ms | ${r.idle.count} (${r.idle.failed}) / ${r.loaded.count} (${r.loaded.failed}) | ${ms(r.idleRun)} / ${ms(r.loadedRun)} | ${JSON.stringify(r.statuses)} |`,
    );
  }
}
