// Evaluations (docs/api.md, Evaluations; docs/benchmarks.md, Evaluations): how fast an evaluation
// replays its cases, and whether the live traffic of another organization notices. Organization A
// has an echo agent with BENCH_EVAL_CASES answered sessions (default 500) and a draft; B has its own
// echo agent. B's synchronous triggers are timed idle, then while A runs three evaluations of the
// draft on all of A's sessions at once (the most an organization may run: EVALUATIONS_PER_ORG).
// Printed: cases a second of one evaluation alone and of three beside B's triggers, and B's p50 and
// p99 idle and under them. An evaluation is background work: its database steps wait for gaps
// between live requests (lib/lifecycle.ts), so beside B's back-to-back triggers it goes slower.
// Env: BENCH_EVAL_CASES (sessions, default 500), BENCH_EVAL_DELAY_MS (the draft's echo delay: a model's
// answer time, default 0), BENCH_EVAL_TRIGGERS (B's triggers per phase, default 300); TEST_DATABASE_URL
// runs it on PostgreSQL. Needs a production build.
import { agentOf, triggersOfB, twoOrgs, type Orgs } from "./two-orgs";

/** `count` answered sessions of `agent`, ten at a time. */
async function sessions(o: Orgs, agent: string, count: number) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < count) {
        const i = next++;
        const res = await o.own.call("POST", `/api/agents/webhook/${agent}`, {
          auth: o.keyA,
          body: { message: `question number ${i} about my order` },
        });
        if (res.status !== 200) throw new Error(`trigger: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }),
  );
}

export default async function bench() {
  const cases = Number(process.env.BENCH_EVAL_CASES ?? 500);
  const delay = Number(process.env.BENCH_EVAL_DELAY_MS ?? 0);
  const amount = Number(process.env.BENCH_EVAL_TRIGGERS ?? 300);
  const o = await twoOrgs("evaluation", {});
  try {
    const org = o.own.org;
    const a = await agentOf(o, org, { name: "evaluated", kind: "conversational", runtime: { type: "echo" } });
    const b = await agentOf(o, o.b, { name: "live", kind: "conversational", runtime: { type: "echo" } });
    await sessions(o, a, cases);
    const base = `/api/v1/organizations/${org.organization_id}/agents/${a}`;
    const draft = await o.own.call("PATCH", base, {
      auth: org.user_token,
      body: { runtime: { type: "echo", delay_ms: delay, timeout_ms: 30_000 }, base_version: 1 },
    });
    if (draft.status !== 200) throw new Error(`draft: ${draft.status}`);

    const body = { candidate: "draft", source: { kind: "sessions", limit: cases }, checks: [{ kind: "no_error" }] };
    // One evaluation alone: nothing else is served meanwhile.
    const alone = await o.own.call("POST", `${base}/evaluations`, { auth: org.user_token, body });
    if (alone.status !== 201) throw new Error(`evaluation: ${alone.status} ${JSON.stringify(alone.body)}`);
    let solo = alone.body;
    while (["queued", "running"].includes(solo.status)) {
      await new Promise((r) => setTimeout(r, 500));
      solo = (await o.own.call("GET", `${base}/evaluations/${solo.evaluation_id}`, { auth: org.user_token })).body;
    }

    await triggersOfB(o, b, 20); // warm-up
    const idle = await triggersOfB(o, b, amount);

    const made: string[] = [];
    const create = async () => {
      const res = await o.own.call("POST", `${base}/evaluations`, { auth: org.user_token, body });
      if (res.status !== 201) throw new Error(`evaluation: ${res.status} ${JSON.stringify(res.body)}`);
      made.push(res.body.evaluation_id);
    };
    const read = (id: string) => o.own.call("GET", `${base}/evaluations/${id}`, { auth: org.user_token });
    // B's triggers from the moment A asks for its evaluations until they have all finished.
    let running = true;
    const watching = (async () => {
      for (let i = 0; i < 3; i++) await create();
      while (running) {
        const states = await Promise.all(made.map(read));
        if (states.some((s) => s.status !== 200))
          throw new Error(`read: ${JSON.stringify(states.map((s) => s.status))}`);
        if (states.every((s) => !["queued", "running"].includes(s.body.status))) running = false;
        else await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const latencies: number[] = [];
    let failed = 0;
    while (running) {
      const t = performance.now();
      const res = await o.own.call("POST", `/api/agents/webhook/${b}`, { auth: o.keyB, body: { message: "hi" } });
      if (res.status !== 200) failed++;
      latencies.push(performance.now() - t);
    }
    await watching;
    latencies.sort((x, y) => x - y);
    const at = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? NaN;
    const loaded = { p50: at(50), p99: at(99), count: latencies.length, failed };
    const done = (await Promise.all(made.map(read))).map((r) => r.body);
    const seconds = (e: { started_at: string; finished_at: string }) =>
      (Date.parse(e.finished_at) - Date.parse(e.started_at)) / 1000;
    const first = done[0]!;
    const all =
      Math.max(...done.map((e) => Date.parse(e.finished_at))) - Math.min(...done.map((e) => Date.parse(e.started_at)));
    console.log(
      `database: ${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"}; ${cases} sessions of A, draft echo delay ${delay} ms; three evaluations at once; B's sync triggers sequentially`,
    );
    console.log("| figure | value |");
    console.log("|---|---|");
    console.log(`| statuses | ${done.map((e) => `${e.status} ${e.counts.passed}/${e.progress.total}`).join(", ")} |`);
    console.log(
      `| one evaluation alone: cases a second | ${(solo.progress.done / seconds(solo)).toFixed(0)} (${seconds(solo).toFixed(1)} s) |`,
    );
    console.log(
      `| beside B's triggers, the first of three: cases a second | ${(first.progress.done / seconds(first)).toFixed(0)} (${seconds(first).toFixed(1)} s) |`,
    );
    console.log(
      `| beside B's triggers, three together: cases a second | ${((3 * cases) / (all / 1000)).toFixed(0)} (${(all / 1000).toFixed(1)} s) |`,
    );
    console.log(
      `| B p50 idle / during | ${idle.p50.toFixed(1)} / ${loaded.p50.toFixed(1)} ms (${(loaded.p50 / idle.p50).toFixed(2)}x) |`,
    );
    console.log(`| B p99 idle / during | ${idle.p99.toFixed(1)} / ${loaded.p99.toFixed(1)} ms |`);
    console.log(
      `| B triggers (failed) idle / during | ${idle.count} (${idle.failed}) / ${loaded.count} (${loaded.failed}) |`,
    );
  } finally {
    await o.own.dispose();
  }
}
