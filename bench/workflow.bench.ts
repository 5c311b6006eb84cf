// Workflow engine throughput and control latency, against a production server (npm run build first).
// 0. What isolating expressions costs: engine passes in this process over BENCH_ENGINE_ITEMS array
//    items (default 50k, 2 transform steps), alternately with the in-process evaluator (the
//    baseline: expressions on the engine's thread, as before isolation; bench/in-process-evaluator.ts)
//    and with the evaluator processes the service uses (lib/expressions), 3 rounds each; items/s
//    from the pass's start to `completed` (materialising, evaluating, writing), best round of each.
// 1. Throughput: a CSV of BENCH_ITEMS rows (default 100k) is uploaded and run through transform
//    steps only; items/s from trigger to `completed`, with the server's peak RSS. Baseline in the
//    same run: the same JSONata expressions evaluated over the same rows in a plain loop, with no
//    persistence; the ratio says what the engine's bookkeeping costs.
// 2. Control latency: BENCH_PAIRS (default 50) pause/resume pairs on a running run, each measured
//    from the control request to the new state being visible in GET; p50/p99.
// 3. With BENCH_BEFORE_DIR (another checkout, e.g. the previous commit in a git worktree, with its
//    node_modules and `npm run db:generate` done): engine passes of this checkout and of that one,
//    each in a process of its own (bench/engine-pass.ts), alternately BENCH_AB_ROUNDS times
//    (default 3); the medians of the best passes and their ratio: what a change to the engine costs.
//    Only this part runs then.
// TEST_DATABASE_URL runs it on a fresh PostgreSQL database instead of PGlite.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import jsonata from "jsonata";
import { ownServer } from "../e2e/api/server";
import { closeExpressionEvaluator, expressionEvaluator, type Evaluator } from "../lib/expressions";
import { openTestDatabase } from "../test-support/db";
import { drive, startRun, workflowAgent } from "../test-support/workflow";
import { inProcessEvaluator } from "./in-process-evaluator";

const EXPRESSIONS = [
  "$merge([item, {'total': $number(item.qty) * $number(item.price)}])",
  "$merge([item, {'big': item.total > 500, 'label': $uppercase(item.name)}])",
];

/** The rows of the CSV below, as the csv reader gives them (strings). */
const row = (i: number) => ({
  id: String(i),
  name: `item ${i}`,
  qty: String((i % 17) + 1),
  price: String((i % 101) + 0.5),
});

function csvRows(n: number): string {
  const lines = ["id,name,qty,price"];
  for (let i = 0; i < n; i++) {
    const r = row(i);
    lines.push(`${r.id},${r.name},${r.qty},${r.price}`);
  }
  return lines.join("\n") + "\n";
}

/** 0. Engine passes in this process: in-process evaluator against the evaluator processes, same run. */
async function isolationCost(items: number) {
  const db = await openTestDatabase();
  try {
    const { agent, key } = await workflowAgent({
      inputs: { rows: { type: "array", required: true } },
      items: { from: "rows" },
      steps: EXPRESSIONS.map((expression, i) => ({ id: `t${i}`, type: "transform", expression })),
    });
    const rows = Array.from({ length: items }, (_, i) => row(i));
    const pass = async (evaluator: Evaluator, n = items) => {
      const runId = await startRun(agent, key, { rows: n === items ? rows : rows.slice(0, n) });
      const started = performance.now();
      const run = await drive(runId, undefined, evaluator);
      if (run.status !== "completed" || run.successful !== n) throw new Error(`pass ended ${run.status}`);
      return n / ((performance.now() - started) / 1000);
    };
    const evaluators = { "in-process": inProcessEvaluator(), isolated: expressionEvaluator() };
    for (const e of Object.values(evaluators)) await pass(e, 2_000); // warm-up (JIT, processes)
    const rates: Record<string, number[]> = { "in-process": [], isolated: [] };
    for (let round = 0; round < 3; round++)
      for (const [name, e] of Object.entries(evaluators)) rates[name]!.push(await pass(e));
    const best = (name: string) => Math.max(...rates[name]!);
    const line = (name: string) =>
      `${rates[name]!.map((r) => r.toFixed(0)).join(", ")} (best ${best(name).toFixed(0)})`;
    console.log(`engine pass in this process, ${items} array items, 2 transform steps (items/s per round):`);
    console.log(`  in-process evaluator (baseline): ${line("in-process")}`);
    console.log(`  evaluator processes (isolated):  ${line("isolated")}`);
    console.log(`  isolated/in-process = ${(best("isolated") / best("in-process")).toFixed(3)}`);
  } finally {
    closeExpressionEvaluator();
    await db.dispose();
  }
}

/** 3. This checkout's engine against BENCH_BEFORE_DIR's, alternately, each pass set in its own process. */
function engineBeforeAfter(before: string) {
  const ours = path.resolve(import.meta.dirname, "..");
  const rounds = Number(process.env.BENCH_AB_ROUNDS ?? 3);
  const best = { ours: [] as number[], before: [] as number[] };
  for (let round = 0; round < rounds; round++)
    for (const [name, root] of [
      ["before", before],
      ["ours", ours],
    ] as const) {
      const out = execFileSync("npx", ["tsx", path.join(ours, "bench/engine-pass.ts")], {
        cwd: root,
        env: { ...process.env, BENCH_ROOT: root },
        encoding: "utf8",
      });
      const line = JSON.parse(out.trim().split("\n").at(-1)!) as { best: number; rates: number[] };
      console.log(`  round ${round + 1} ${name}: ${line.rates.join(", ")} items/s (best ${line.best})`);
      best[name].push(line.best);
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(
    `engine passes against ${before}: ours ${median(best.ours)} items/s, before ${median(best.before)} items/s` +
      ` (medians of the best pass per round), ours/before = ${(median(best.ours) / median(best.before)).toFixed(3)}`,
  );
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

function rssMb(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
}

/** The Next server is a child of the process group leader: sum the group's RSS. */
function groupRssMb(leader: number): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const pgid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      if (pgid === leader) total += rssMb(Number(entry)).rss;
    } catch {
      /* gone */
    }
  }
  return total;
}

async function baseline(rows: Record<string, string>[]): Promise<number> {
  const compiled = EXPRESSIONS.map((e) => jsonata(e));
  const started = performance.now();
  for (const row of rows) {
    let item: unknown = row;
    for (const c of compiled) item = await c.evaluate({ item, inputs: {} }, { item, inputs: {} });
  }
  return rows.length / ((performance.now() - started) / 1000);
}

export default async function bench() {
  const items = Number(process.env.BENCH_ITEMS ?? 100_000);
  const pairs = Number(process.env.BENCH_PAIRS ?? 50);
  if (process.env.BENCH_BEFORE_DIR) return engineBeforeAfter(process.env.BENCH_BEFORE_DIR);
  await isolationCost(Number(process.env.BENCH_ENGINE_ITEMS ?? 50_000));
  const own = await ownServer("bench-wf", { LOG_LEVEL: "warn" });
  try {
    const server = own.server;
    const req = async (auth: string, method: string, p: string, body?: unknown) =>
      (await own.call(method, p, { auth, body })).body;
    /** `call` sends JSON only: the CSV goes up as multipart form data. */
    const upload = async (auth: string, p: string, form: FormData) => {
      const res = await fetch(`${server.baseUrl}${p}`, {
        method: "POST",
        headers: { authorization: `Bearer ${auth}` },
        body: form,
      });
      return (await res.json()) as any;
    };
    const key = await own.mintKey();
    const csvAgent = await own.createAgent({
      name: "csv transforms",
      kind: "workflow",
      runtime: { type: "echo" },
      workflow: {
        inputs: { rows: { type: "file", required: true } },
        items: { from: "rows", format: "csv" },
        steps: EXPRESSIONS.map((expression, i) => ({ id: `t${i}`, type: "transform", expression })),
        output: { filename: "out.csv", format: "csv" },
      },
    });
    const slowAgent = await own.createAgent({
      name: "paced",
      kind: "workflow",
      runtime: { type: "echo" },
      workflow: {
        inputs: { rows: { type: "array", required: true } },
        items: { from: "rows" },
        steps: [{ id: "pace", type: "wait", ms: 20 }],
      },
    });

    // 1. throughput
    const csv = csvRows(items);
    const form = new FormData();
    form.append("file", new Blob([csv], { type: "text/csv" }), "rows.csv");
    const file = await upload(key, `/api/agents/${csvAgent}/upload`, form);
    const base = await baseline(
      csv
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => {
          const [id, name, qty, price] = l.split(",");
          return { id: id!, name: name!, qty: qty!, price: price! };
        }),
    );
    const rssBefore = groupRssMb(server.proc.pid!);
    let peak = rssBefore;
    const started = performance.now();
    const triggered = await req(key, "POST", `/api/agents/webhook/${csvAgent}`, { rows: { file_id: file.file_id } });
    const run_id = triggered.run_id as string;
    if (!run_id) throw new Error(`trigger failed: ${JSON.stringify(triggered)} (upload: ${JSON.stringify(file)})`);
    let run: any;
    for (;;) {
      run = await req(key, "GET", `/api/agents/${csvAgent}/runs/${run_id}`);
      peak = Math.max(peak, groupRssMb(server.proc.pid!));
      if (!["pending", "running"].includes(run.status)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = (performance.now() - started) / 1000;
    const rate = items / seconds;
    console.log(`engine: ${items} csv items, 2 transform steps -> ${run.status} in ${seconds.toFixed(1)} s`);
    console.log(`  counts: ${JSON.stringify(run.item_counts)} output ${run.output_files?.[0]?.size_bytes} bytes`);
    console.log(
      `  engine throughput: ${rate.toFixed(0)} items/s (trigger to completed, incl. reading the csv and writing the output)`,
    );
    console.log(
      `  baseline (same JSONata in a plain loop, no persistence): ${base.toFixed(0)} items/s; engine/baseline = ${(rate / base).toFixed(3)}`,
    );
    console.log(
      `  server RSS: ${rssBefore.toFixed(0)} MB before, ${peak.toFixed(0)} MB peak (+${(peak - rssBefore).toFixed(0)} MB)`,
    );

    // 2. control latency
    const rows = Array.from({ length: 5_000 }, (_, n) => ({ n }));
    const slow = await req(key, "POST", `/api/agents/webhook/${slowAgent}`, { rows });
    while ((await req(key, "GET", `/api/agents/${slowAgent}/runs/${slow.run_id}`)).status !== "running")
      await new Promise((r) => setTimeout(r, 20));
    const latencies: number[] = [];
    for (let i = 0; i < pairs; i++) {
      for (const [action, state] of [
        ["pause", "paused"],
        ["resume", "running"],
      ] as const) {
        const t0 = performance.now();
        await req(key, "POST", `/api/agents/${slowAgent}/runs/${slow.run_id}/${action}`);
        while ((await req(key, "GET", `/api/agents/${slowAgent}/runs/${slow.run_id}`)).status !== state) {
          /* poll until visible */
        }
        latencies.push(performance.now() - t0);
      }
    }
    await req(key, "POST", `/api/agents/${slowAgent}/runs/${slow.run_id}/cancel`);
    latencies.sort((a, b) => a - b);
    console.log(
      `control latency (request -> state visible in GET), ${latencies.length} controls: p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms`,
    );
  } finally {
    await own.dispose();
  }
}
