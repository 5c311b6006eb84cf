// Two organizations on one production server, for the benchmarks of fair share between them
// (fair-share.bench.ts, evaluation.bench.ts): A loads the server, B's latency is measured.
import { admin, ownServer, startServer, type OwnServer } from "../e2e/api/server";

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

export interface Orgs {
  own: OwnServer;
  b: { organization_id: string; user_token: string };
  keyA: string;
  keyB: string;
}

/** A server with two organizations (the embedded database takes the CLI only while it is stopped). */
export async function twoOrgs(label: string, env: Record<string, string>): Promise<Orgs> {
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

export async function agentOf(o: Orgs, org: { organization_id: string; user_token: string }, spec: unknown) {
  const res = await o.own.call("POST", `/api/v1/organizations/${org.organization_id}/agents`, {
    auth: org.user_token,
    body: spec,
  });
  if (res.status !== 201) throw new Error(`create agent: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.agent_id as string;
}

export const workflow = (steps: unknown[]) => ({
  name: "wf",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: { inputs: { rows: { type: "array", required: true } }, items: { from: "rows" }, steps },
});

/** B's synchronous triggers one after another, at most `amount` or for `budgetMs`: p50 and p99 in ms. */
export async function triggersOfB(o: Orgs, agent: string, amount: number, budgetMs = 60_000) {
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
