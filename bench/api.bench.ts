// The public API's throughput and latency under load, each figure against baselines measured in
// the same run (docs/benchmarks.md says what each measures):
//   1. async trigger accept (echo runtime)    vs the bare server (bench/bare-server.ts), same SQL
//   2. GET one message (polling)               vs the bare server, and vs an empty Next route
//   2b. GET one message of the agent that has just taken figure 1's burst (thousands of sessions),
//       right after it: the poll a client makes after its triggers   vs the same baselines
//   3. GET one run                             vs the empty Next route (bench/empty-app)
//   4. sync trigger, http runtime upstream     vs the bare server doing the same
//   5. sync flood: BENCH_FLOOD_CALLERS (default 2,000) sync triggers at once, ours only: peak RSS
// with the production server's RSS, idle (right after the warm-up, and at rest: once V8 has given
// back what the warm-up left) and at its peak under each load.
// Servers: the production one (node dist/server.mjs on a fresh database: PGlite, or PostgreSQL
// with TEST_DATABASE_URL), the bare server on a fresh database of its own, the empty Next app and
// the fake upstream (bench/fake-upstream.ts), each in its own process; autocannon runs here.
// Env: BENCH_DURATION (s per load, default 10), BENCH_UPSTREAM_DELAY_MS (default 500), BENCH_FLOOD_CALLERS,
// BENCH_WEB_CONCURRENCY (server processes of the production server, default 1; PostgreSQL only),
// BENCH_BEFORE_DIR (another checkout with its own production build, e.g. the previous commit's in a
// git worktree: its server runs beside ours on a database of its own, made by this checkout's
// migrations, and every figure is measured on both, alternately, BENCH_AB_ROUNDS times (default 3):
// the second table gives the median of each and their ratio).
// Needs a production build (npm run build, with the same NEXT_DIST_DIR).
import { dbEnv, freshTarget, ownServer } from "../e2e/api/server";
import { sha256 } from "../lib/auth/secrets";
import { startEmptyNext } from "./empty-next";
import { groupRssMb, load, settle, type Figure, type LoadOptions } from "./load";
import { startProcess } from "./processes";

type Target = Omit<LoadOptions, "duration" | "watch">;

interface Baseline {
  name: string;
  /** The baseline server's process (group), to wait for it to be idle after its load. */
  pid: number;
  target: Target;
}

interface Row {
  figure: string;
  ours: Figure;
  baseline: string;
  base: Figure;
}

const MESSAGE_BODY = JSON.stringify({ message: "benchmark message" });

const RUN_AGENT = {
  name: "bench run",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "array", required: true } },
    items: { from: "rows" },
    steps: [{ id: "double", type: "transform", expression: "$merge([item, {'m': item.n * 2}])" }],
  },
};

async function json(res: Response): Promise<any> {
  const body = await res.json();
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * The server's RSS once it has been idle long enough for V8 to give back what a load left (its
 * memory reducer runs some seconds after the allocation stops, and was seen to wait up to 40 s):
 * sampled every 5 s until three samples in a row are within 2 % of each other, at least 60 s and at
 * most 120 s after the call.
 */
async function atRest(pid: number): Promise<{ rss: number; seconds: number }> {
  const samples: number[] = [];
  for (let seconds = 5; seconds <= 120; seconds += 5) {
    await new Promise((r) => setTimeout(r, 5000));
    samples.push(groupRssMb(pid));
    const last = samples.slice(-3);
    if (seconds >= 60 && Math.max(...last) <= Math.min(...last) * 1.02) return { rss: last.at(-1)!, seconds };
  }
  return { rss: samples.at(-1)!, seconds: 120 };
}

const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const failures = (f: Figure) => (f.non2xx || f.errors ? `${f.non2xx}/${f.errors}` : "0");

/** The one table, as Markdown (ready for docs/benchmarks.md). */
function printTable(rows: Row[]) {
  const header = [
    "figure",
    "ours req/s",
    "ours p50/p99 ms",
    "ours non-2xx/err",
    "peak RSS MB",
    "baseline",
    "base req/s",
    "base p50/p99 ms",
    "base non-2xx/err",
    "ours/base",
  ];
  const lines = rows.map((r) => [
    r.figure,
    fmt(r.ours.rps),
    `${r.ours.p50}/${r.ours.p99}`,
    failures(r.ours),
    r.ours.peakRssMb ? r.ours.peakRssMb.toFixed(0) : "",
    r.baseline,
    fmt(r.base.rps),
    `${r.base.p50}/${r.base.p99}`,
    failures(r.base),
    (r.ours.rps / r.base.rps).toFixed(2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log([line(header), line(widths.map((w) => "-".repeat(w))), ...lines.map(line)].join("\n"));
}

export default async function bench() {
  const duration = Number(process.env.BENCH_DURATION ?? 10);
  const delayMs = Number(process.env.BENCH_UPSTREAM_DELAY_MS ?? 500);
  const stops: Array<() => Promise<void>> = [];
  try {
    const upstream = await startProcess({
      name: "upstream",
      args: ["bench/fake-upstream.ts"],
      tsx: true,
      env: { BENCH_UPSTREAM_DELAY_MS: String(delayMs) },
      probePath: "/",
    });
    stops.push(upstream.stop);

    // The production server and what the requests need on it.
    const own = await ownServer("bench-api", {
      LOG_LEVEL: "warn",
      WEB_CONCURRENCY: process.env.BENCH_WEB_CONCURRENCY ?? "1",
      // Figure 5's callers all wait (one organization's line is 500 by default: past it, 503 at once).
      ORG_REPLY_BACKLOG: "2000",
    });
    stops.push(own.dispose);
    const serverPid = own.server.proc.pid!;
    const key = await own.mintKey();
    const agents = [
      { name: "bench echo", kind: "conversational", runtime: { type: "echo", delay_ms: 0 } },
      { name: "bench http", kind: "conversational", runtime: { type: "http", url: `${upstream.baseUrl}/reply` } },
    ];
    const [echoAgent, httpAgent] = [await own.createAgent(agents[0]), await own.createAgent(agents[1])];
    const runAgent = await own.createAgent(RUN_AGENT);

    // The bare server, on a database of its own seeded with the same organization, key and agents.
    const bareDb = await freshTarget("bench-bare");
    stops.push(bareDb.dispose);
    const seed = {
      key: { id: "key_bench", hash: sha256(key), start: key.slice(0, 10), permissions: ["agents:invoke"] },
      organizationId: own.org.organization_id,
      projectId: own.org.project_id,
      agents: [echoAgent, httpAgent].map((id, i) => ({ id, ...agents[i]! })),
    };
    const bare = await startProcess({
      name: "bare",
      args: ["bench/bare-server.ts"],
      tsx: true,
      env: { ...dbEnv(bareDb.target), BARE_SEED: JSON.stringify(seed), LOG_LEVEL: "warn" },
      probePath: "/health",
    });
    stops.push(bare.stop);
    const empty = await startEmptyNext();
    stops.push(empty.stop);

    const auth = { authorization: `Bearer ${key}` };
    const trigger = (base: string, agent: string, prefer?: string) => ({
      url: `${base}/api/agents/webhook/${agent}`,
      method: "POST",
      headers: { ...auth, "content-type": "application/json", ...(prefer ? { prefer } : {}) },
      body: MESSAGE_BODY,
    });
    const asyncTrigger = (base: string) => trigger(base, echoAgent, "respond-async");
    const syncTrigger = (base: string) => trigger(base, httpAgent);
    /** A completed reply of `agent` on that server (sync trigger): a message a GET figure polls. */
    const replyUrl = async (base: string, agent = httpAgent) => {
      const { url, ...init } = trigger(base, agent);
      const { session_id, message_id } = await json(await fetch(url, init));
      return `${base}/api/agents/${agent}/sessions/${session_id}/messages/${message_id}`;
    };
    const ownMessage = await replyUrl(own.server.baseUrl);
    const bareMessage = await replyUrl(bare.baseUrl);
    // A message of the echo agent, made before figure 1's burst on that agent and polled after it.
    const ownBurstMessage = await replyUrl(own.server.baseUrl, echoAgent);
    const bareBurstMessage = await replyUrl(bare.baseUrl, echoAgent);
    /** A completed run of 10 rows on a server: the run the GET run figure polls. */
    const completedRun = async (base: string, agent: string, headers: Record<string, string>) => {
      const rows10 = JSON.stringify({ rows: Array.from({ length: 10 }, (_, n) => ({ n })) });
      const { run_id } = await json(
        await fetch(`${base}/api/agents/webhook/${agent}`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: rows10,
        }),
      );
      const runUrl = `${base}/api/agents/${agent}/runs/${run_id}`;
      while ((await json(await fetch(runUrl, { headers }))).status !== "completed")
        await new Promise((r) => setTimeout(r, 100));
      return runUrl;
    };
    const runUrl = await completedRun(own.server.baseUrl, runAgent, auth);

    // The previous build (BENCH_BEFORE_DIR), with the same agents, measured as a baseline of every figure.
    let before: { pid: number; async: Target; message: Target; burst: Target; run: Target; sync: Target } | undefined;
    if (process.env.BENCH_BEFORE_DIR) {
      const old = await ownServer(
        "bench-before",
        { LOG_LEVEL: "warn", WEB_CONCURRENCY: process.env.BENCH_WEB_CONCURRENCY ?? "1" },
        { cwd: process.env.BENCH_BEFORE_DIR },
      );
      stops.push(old.dispose);
      const oldAuth = { authorization: `Bearer ${await old.mintKey()}` };
      const [oldEcho, oldHttp, oldRun] = [
        await old.createAgent(agents[0]),
        await old.createAgent(agents[1]),
        await old.createAgent(RUN_AGENT),
      ];
      const oldTrigger = (agent: string, prefer?: string) => ({
        url: `${old.server.baseUrl}/api/agents/webhook/${agent}`,
        method: "POST",
        headers: { ...oldAuth, "content-type": "application/json", ...(prefer ? { prefer } : {}) },
        body: MESSAGE_BODY,
      });
      const oldMessage = async (agent: string): Promise<Target> => {
        const { url, ...init } = oldTrigger(agent);
        const { session_id, message_id } = await json(await fetch(url, init));
        const path = `/api/agents/${agent}/sessions/${session_id}/messages/${message_id}`;
        return { url: `${old.server.baseUrl}${path}`, headers: oldAuth, connections: 50 };
      };
      before = {
        pid: old.server.proc.pid!,
        async: { ...oldTrigger(oldEcho, "respond-async"), connections: 50 },
        message: await oldMessage(oldHttp),
        burst: await oldMessage(oldEcho),
        run: { url: await completedRun(old.server.baseUrl, oldRun, oldAuth), headers: oldAuth, connections: 50 },
        sync: { ...oldTrigger(oldHttp), connections: 100, timeout: 30 },
      };
    }

    const notes: string[] = [];
    /** A load on one server, then a wait until that server is idle again (replies still being written). */
    const measure = async (label: string, pid: number, opts: Target) => {
      const figure = await load({ ...opts, duration, watch: pid });
      const busy = await settle(pid);
      if (busy === undefined) notes.push(`${label}: the server was still busy 180 s after the load`);
      else if (busy >= 3) notes.push(`${label}: the server stayed busy ${busy.toFixed(1)} s after the load`);
      return figure;
    };

    // Warm-up of every server and route (modules, JIT, caches, connections), then idle again.
    const warm = (opts: Omit<LoadOptions, "duration" | "connections">) =>
      load({ ...opts, connections: 10, duration: 2 });
    for (const base of [own.server.baseUrl, bare.baseUrl]) {
      await warm(asyncTrigger(base));
      await warm(syncTrigger(base));
    }
    for (const url of [ownMessage, bareMessage, ownBurstMessage, bareBurstMessage]) await warm({ url, headers: auth });
    await warm({ url: runUrl, headers: auth });
    await warm({ url: `${empty.baseUrl}/api/empty` });
    if (before) for (const t of [before.async, before.sync, before.message, before.burst, before.run]) await warm(t);
    for (const pid of [serverPid, bare.pid, ...(before ? [before.pid] : [])]) await settle(pid);
    const idleRss = groupRssMb(serverPid);
    const restingRss = await atRest(serverPid);

    // The figures, each against its baselines; the empty Next route is measured once for both of its uses.
    const c50 = { connections: 50 };
    const sync = { connections: 100, timeout: 30 };
    const emptyNext: Baseline = {
      name: "empty Next",
      pid: empty.pid,
      target: { url: `${empty.baseUrl}/api/empty`, ...c50 },
    };
    const bareOn = (target: Target): Baseline => ({ name: "bare", pid: bare.pid, target });
    type Key = "async" | "message" | "burst" | "run" | "sync";
    const figures: { name: string; key: Key; ours: Target; baselines: Baseline[] }[] = [
      {
        name: "1. async trigger accept",
        key: "async",
        ours: { ...asyncTrigger(own.server.baseUrl), ...c50 },
        baselines: [bareOn({ ...asyncTrigger(bare.baseUrl), ...c50 })],
      },
      {
        // Right after figure 1: on each server the agent now has its burst's sessions and replies.
        name: "2b. GET message, after the burst on its agent",
        key: "burst",
        ours: { url: ownBurstMessage, headers: auth, ...c50 },
        baselines: [bareOn({ url: bareBurstMessage, headers: auth, ...c50 }), emptyNext],
      },
      {
        name: "2. GET message",
        key: "message",
        ours: { url: ownMessage, headers: auth, ...c50 },
        baselines: [bareOn({ url: bareMessage, headers: auth, ...c50 }), emptyNext],
      },
      { name: "3. GET run", key: "run", ours: { url: runUrl, headers: auth, ...c50 }, baselines: [emptyNext] },
      {
        name: `4. sync trigger, http ${delayMs} ms`,
        key: "sync",
        ours: { ...syncTrigger(own.server.baseUrl), ...sync },
        baselines: [bareOn({ ...syncTrigger(bare.baseUrl), ...sync })],
      },
    ];
    const measured = new Map<Baseline, Figure>();
    const rows: Row[] = [];
    for (const f of figures) {
      const ours = await measure(`${f.name} (ours)`, serverPid, f.ours);
      for (const b of f.baselines) {
        if (!measured.has(b)) measured.set(b, await measure(`${f.name} (${b.name})`, b.pid, b.target));
        rows.push({ figure: f.name, ours, baseline: b.name, base: measured.get(b)! });
      }
    }

    console.log(
      `database: ${own.target.databaseUrl ? "postgres" : "pglite"}; ${duration} s per load; ` +
        `production server processes: ${process.env.BENCH_WEB_CONCURRENCY ?? "1"}; ` +
        `production server RSS idle (after warm-up) ${idleRss.toFixed(0)} MB, ` +
        `at rest ${restingRss.rss.toFixed(0)} MB (${restingRss.seconds} s later)`,
    );
    printTable(rows);
    for (const r of rows) {
      for (const [who, f] of [
        ["ours", r.ours],
        [r.baseline, r.base],
      ] as const) {
        if (f.non2xx || f.errors)
          notes.push(`${r.figure} (${who}): statuses ${f.statuses}, ${f.errors} errors (${f.timeouts} timeouts)`);
      }
    }
    if (before) {
      // Ours and the previous build, alternately (which goes first alternates too), so that a drift
      // of the machine during the run weighs on both alike.
      const rounds = Number(process.env.BENCH_AB_ROUNDS ?? 3);
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      console.log(`\nagainst the previous build (${process.env.BENCH_BEFORE_DIR}), ${rounds} alternating rounds:`);
      console.log("| figure | ours req/s (median) | before req/s (median) | ours/before | each round |");
      console.log("|---|---|---|---|---|");
      for (const f of figures) {
        const ours: number[] = [];
        const old: number[] = [];
        for (let r = 0; r < rounds; r++) {
          const pair = [
            async () => ours.push((await measure(`${f.name} (ours)`, serverPid, f.ours)).rps),
            async () => old.push((await measure(`${f.name} (before)`, before.pid, before[f.key])).rps),
          ];
          for (const run of r % 2 ? pair.reverse() : pair) await run();
        }
        const each = ours.map((o, i) => (o / old[i]!).toFixed(2)).join(", ");
        console.log(
          `| ${f.name} | ${fmt(median(ours))} | ${fmt(median(old))} | ${(median(ours) / median(old)).toFixed(2)} | ${each} |`,
        );
      }
    }
    // 5. Memory under a flood of waiting callers: FLOOD_CALLERS sync triggers at once on the http
    // agent (each waits for its reply), ours only; the figure is the peak RSS against 1 GB.
    const callers = Number(process.env.BENCH_FLOOD_CALLERS ?? 2000);
    const flood = await measure("5. sync flood (ours)", serverPid, {
      ...syncTrigger(own.server.baseUrl),
      connections: callers,
      timeout: 30,
    });
    console.log(
      `\n5. sync flood, ${callers} callers at once (http ${delayMs} ms, ${duration} s): ${fmt(flood.rps)} req/s, ` +
        `p50/p99 ${flood.p50}/${flood.p99} ms, statuses ${flood.statuses}, ${flood.errors} errors; ` +
        `peak RSS ${flood.peakRssMb!.toFixed(0)} MB (goal: under 1,024 MB); ` +
        `at rest after it ${(await atRest(serverPid)).rss.toFixed(0)} MB`,
    );
    for (const note of [...new Set(notes)]) console.log(`- ${note}`);
  } finally {
    for (const stop of stops.reverse()) await stop().catch((e) => console.error(`cleanup: ${(e as Error).message}`));
  }
}
