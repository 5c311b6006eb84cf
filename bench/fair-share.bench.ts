// Fair share between organizations (docs/security.md T-SHARE): organization B's synchronous trigger
// latency and the time its short run takes, idle and while organization A floods the same server
// with slow replies (async triggers at a steady rate to an agent that takes 30 s a reply) and long
// runs (more than the worker has slots). Run twice: with the default fair-share settings, and with
// them off (an organization may take every reply and worker slot), as the baseline.
// Env: BENCH_FAIR_TRIGGERS (B's triggers per phase, default 300), BENCH_FAIR_RATE (A's triggers a
// second, default 100); TEST_DATABASE_URL runs it on PostgreSQL. Needs a production build.
import { admin, ownServer, startServer, type OwnServer } from "../e2e/api/server";

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

interface Orgs {
  own: OwnServer;
  b: { organization_id: string; user_token: string };
  keyA: string;
  keyB: string;
}

/** A server with two organizations (the embedded database takes the CLI only while it is stopped). */
async function twoOrgs(label: string, env: Record<string, string>): Promise<Orgs> {
  const own = await ownServer(label, { LOG_LEVEL: "warn", ...env });
  const keyA = await own.mintKey();
  await own.server.stop();
  const b = (await admin(own.target, [
    "bootstrap",
    "--org",
    `${label}-b`,
    "--email",
    `${label}-b@example.com`,
    "--password",
    "correct horse battery",
  ])) as Orgs["b"];
  own.server = await startServer(own.target, { SEED_DEMO: "false", LOG_LEVEL: "warn", ...env }, own.server.port);
  const minted = await own.call("POST", `/api/v1/organizations/${b.organization_id}/access-keys`, {
    auth: b.user_token,
    body: { name: "b" },
  });
  return { own, b, keyA, keyB: minted.body.key };
}

async function agentOf(o: Orgs, org: { organization_id: string; user_token: string }, spec: unknown) {
  const res = await o.own.call("POST", `/api/v1/organizations/${org.organization_id}/agents`, {
    auth: org.user_token,
    body: spec,
  });
  if (res.status !== 201) throw new Error(`create agent: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.agent_id as string;
}

const workflow = (steps: unknown[]) => ({
  name: "wf",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: { inputs: { rows: { type: "array", required: true } }, items: { from: "rows" }, steps },
});

/** B's synchronous triggers one after another, at most `amount` or for `budgetMs`: p50 and p99 in ms. */
async function triggersOfB(o: Orgs, agent: string, amount: number, budgetMs = 60_000) {
  const latencies: number[] = [];
  let failed = 0;
  const until = performance.now() + budgetMs;
  for (let i = 0; i < amount && performance.now() < until; i++) {
    const t = performance.now();
    const res = await o.own.call("POST", `/api/agents/webhook/${agent}`, { auth: o.keyB, body: { message: "hi" } });
    if (res.status !== 200) failed++;
    latencies.push(performance.now() - t);
  }
  latencies.sort((x, y) => x - y);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), failed, count: latencies.length };
}

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
    const longA = await agentOf(o, o.own.org, workflow([{ id: "pace", type: "wait", ms: 20 }]));

    await triggersOfB(o, echoB, 20); // warm-up
    const idle = await triggersOfB(o, echoB, amount);
    const idleRun = await runOfB(o, shortB);

    // A: 20 long runs (5 times the worker's slots), then async triggers at a steady rate.
    const rows = Array.from({ length: 5_000 }, (_, i) => ({ i }));
    for (let i = 0; i < 20; i++) {
      await o.own.call("POST", `/api/agents/webhook/${longA}`, { auth: o.keyA, body: { rows } });
    }
    const statuses = new Map<number, number>();
    let flooding = true;
    const flood = (async () => {
      const t0 = performance.now();
      let sent = 0;
      const inFlight = new Set<Promise<void>>();
      while (flooding) {
        const due = ((performance.now() - t0) / 1000) * rate;
        while (sent < due) {
          sent++;
          const p: Promise<void> = o.own
            .call("POST", `/api/agents/webhook/${slowA}`, {
              auth: o.keyA,
              body: { message: "flood" },
              headers: { prefer: "respond-async" },
            })
            .then((res) => void statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1))
            .catch(() => void statuses.set(0, (statuses.get(0) ?? 0) + 1))
            .finally(() => inFlight.delete(p));
          inFlight.add(p);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      await Promise.all(inFlight);
    })();
    await new Promise((r) => setTimeout(r, 5_000)); // the slots fill up
    const loaded = await triggersOfB(o, echoB, amount);
    const loadedRun = await runOfB(o, shortB);
    flooding = false;
    await flood;
    return { label, idle, loaded, idleRun, loadedRun, statuses: Object.fromEntries(statuses) };
  } finally {
    await o.own.dispose();
  }
}

export default async function bench() {
  const results = [
    await scenario("on", {}),
    await scenario("off", {
      ORG_REPLY_CONCURRENCY: "100000",
      ORG_REPLY_BACKLOG: "1000000",
      ORG_RUN_CONCURRENCY: "1000",
    }),
  ];
  const ms = (n: number) => (Number.isFinite(n) ? `${Math.round(n)} ms` : `over ${RUN_BUDGET_MS / 1000} s`);
  console.log(
    `database: ${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"}; B's sync triggers sequentially, A's async triggers at ${process.env.BENCH_FAIR_RATE ?? 100}/s to a 30 s agent plus 20 long runs`,
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
