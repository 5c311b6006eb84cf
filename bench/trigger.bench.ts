// Trigger-to-reply latency of synchronous conversational triggers (echo runtime, no delay) at 50
// concurrent callers, against `GET /api/health` on the same server as the baseline.
// Env: BENCH_TRIGGERS (default 1000), BENCH_CONNECTIONS (default 50); TEST_DATABASE_URL runs it
// on a fresh PostgreSQL database instead of PGlite. Needs a production build (npm run build).
import { ownServer } from "../e2e/api/server";

interface Load {
  label: string;
  p50: number;
  p99: number;
  rps: number;
  failed: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/** `amount` requests from `connections` concurrent callers; latency per request, end to end. */
async function load(opts: { label: string; amount: number; connections: number; request: () => Promise<Response> }) {
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  const started = performance.now();
  const caller = async () => {
    while (next < opts.amount) {
      next++;
      const t = performance.now();
      try {
        const res = await opts.request();
        await res.arrayBuffer();
        if (!res.ok) failed++;
      } catch {
        failed++;
      }
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: opts.connections }, caller));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((x, y) => x - y);
  return {
    label: opts.label,
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    rps: latencies.length / seconds,
    failed,
  } satisfies Load;
}

export default async function bench() {
  const amount = Number(process.env.BENCH_TRIGGERS ?? 1000);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
  const own = await ownServer("bench-trigger", { LOG_LEVEL: "warn" });
  try {
    const server = own.server;
    const key = await own.mintKey();
    const agent_id = await own.createAgent({
      name: "bench",
      kind: "conversational",
      runtime: { type: "echo", delay_ms: 0 },
    });

    const healthUrl = `${server.baseUrl}/api/health`;
    const health = () => load({ label: "GET /api/health", amount, connections, request: () => fetch(healthUrl) });
    const trigger = () =>
      fetch(`${server.baseUrl}/api/agents/webhook/${agent_id}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ message: "benchmark message" }),
      });
    const triggers = () => load({ label: "POST trigger (sync, echo)", amount, connections, request: trigger });
    // Warm-up: module loading, the key cache, the worker's first fetch.
    await load({ label: "warm-up", amount: 50, connections: 5, request: trigger });
    const baseline = await health();
    const trig = await triggers();
    const rows = [baseline, trig];
    console.log(
      `database: ${own.target.databaseUrl ? "postgres" : "pglite"}; ${amount} requests, ${connections} concurrent callers`,
    );
    console.table(
      rows.map((r) => ({
        load: r.label,
        "p50 ms": r.p50,
        "p99 ms": r.p99,
        "req/s": Math.round(r.rps * 10) / 10,
        failed: r.failed,
      })),
    );
    console.log(
      `trigger vs health: p50 x${(trig.p50 / Math.max(baseline.p50, 1)).toFixed(1)}, ` +
        `throughput ${((trig.rps / baseline.rps) * 100).toFixed(1)}% of health`,
    );
  } finally {
    await own.dispose();
  }
}
