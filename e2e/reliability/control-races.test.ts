// Control races over HTTP against the real server (the unit-level twin is lib/workflow/races.test.ts):
// seeded random rounds of concurrent pause / resume / cancel / retry / approve calls on live workflow
// runs, whose engine works, waits for review and fails at the same time. Whatever interleaving the
// machine produces, the checks below hold for it, so none depends on timing:
// - every call is answered (2xx, or 409 invalid_state_transition / 404 approval_not_found in the
//   error envelope), never 5xx, never a hang;
// - the run ends in a state of RUN_MOVES, its audit trail is a path of legal moves from `trigger`
//   to that state (the final state is the last effective move);
// - the trail's control entries are exactly the controls answered 2xx (each once, with its action
//   and its triggered_by), none of the refused ones; each auto-resume entry is an approval answered
//   `resumed: true`; a control answered before another was sent comes first in the trail.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ALLOWED_FROM, isLegalMove, RUN_MOVES, RUN_STATUSES, type RunMove } from "../../lib/runs/state";
import { createAgent, ctx, mintKey } from "../api/helpers";
import { send } from "./fuzz/http";
import { checkAnswer, expectNoUncaught, logMark } from "./fuzz/invariants";
import { baseSeed, runProperty } from "./fuzz/seeds";
import { scale } from "./scale";

const RUNS = scale({ full: 40, ci: 8 });
const BASE_SEED = baseSeed();

const RACE_WORKFLOW = {
  name: "control races",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "array", required: true } },
    items: { from: "rows" },
    steps: [
      { id: "pace", type: "wait", ms: 15 },
      { id: "look", type: "review", when: "item.review" },
      { id: "boom", type: "fail", when: "item.fail", fatal: true },
    ],
    concurrency: 2,
  },
};

type Action = "pause" | "resume" | "cancel" | "retry" | "approve";

interface Sent {
  label: string;
  action: Action;
  sentAt: number;
  answeredAt: number;
  status: number;
  body: any;
}

let key: string;
let agentId: string;
let base: string;
let tick = 0;
let mark: number;

beforeAll(async () => {
  base = ctx().baseUrl;
  mark = logMark();
  key = (await mintKey(ctx().orgA, ["agents:invoke"], "race key")).key;
  agentId = (await createAgent(ctx().orgA, RACE_WORKFLOW)).agent_id;
  console.log(`[fuzz] control races: ${RUNS} runs, seed ${BASE_SEED} (replay: FUZZ_SEED=${BASE_SEED})`);
});

async function request(method: string, target: string, body?: unknown) {
  const res = await send(base, {
    method,
    target,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body !== undefined ? Buffer.from(JSON.stringify(body)) : undefined,
  });
  checkAnswer({ method, target, family: "access_key" }, res);
  return { status: res.status, body: res.text ? JSON.parse(res.text) : undefined };
}

const runPath = (runId: string) => `/api/agents/${agentId}/runs/${runId}`;

/** One control (or approval) with a unique triggered_by, timed on a logical clock. */
async function act(runId: string, action: Action, label: string, resolution: string): Promise<Sent> {
  const sentAt = ++tick;
  let res: { status: number; body: any };
  if (action === "approve") {
    const list = await request("GET", `${runPath(runId)}/approvals`);
    expect(list.status).toBe(200);
    const open = list.body as { exception_id: string }[];
    res = open.length
      ? await request("POST", `${runPath(runId)}/approvals/resolve`, {
          exception_id: open[0]!.exception_id,
          resolution,
        })
      : { status: 204, body: undefined }; // nothing to approve: no call made
  } else {
    res = await request("POST", `${runPath(runId)}/${action}?triggered_by=${label}`);
  }
  return { label, action, sentAt, answeredAt: ++tick, ...res };
}

async function settled(runId: string) {
  for (let i = 0; i < 1200; i++) {
    const res = await request("GET", runPath(runId));
    expect(res.status).toBe(200);
    if (!["pending", "running"].includes(res.body.status)) {
      // Nothing moves a run out of these but a control (none is in flight any more).
      const again = await request("GET", runPath(runId));
      if (again.body.status === res.body.status && again.body.events.length === res.body.events.length)
        return again.body;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`run ${runId} did not settle`);
}

const scheduleArb = fc.record({
  rows: fc.array(
    fc.record({
      review: fc.oneof({ weight: 1, arbitrary: fc.constant(true) }, { weight: 2, arbitrary: fc.constant(false) }),
      fail: fc.oneof({ weight: 1, arbitrary: fc.constant(true) }, { weight: 8, arbitrary: fc.constant(false) }),
    }),
    { minLength: 2, maxLength: 12 },
  ),
  rounds: fc.array(
    fc.record({
      // Cancel is final: drawn less often, so that runs live through more of the other moves.
      actions: fc.array(
        fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom<Action>("pause", "resume") },
          { weight: 2, arbitrary: fc.constantFrom<Action>("retry", "approve") },
          { weight: 1, arbitrary: fc.constant<Action>("cancel") },
        ),
        { minLength: 1, maxLength: 4 },
      ),
      delayMs: fc.constantFrom(0, 0, 5, 20, 60),
      resolution: fc.constantFrom("approved", "approved", "rejected"),
    }),
    { minLength: 2, maxLength: 7 },
  ),
});

describe("concurrent controls on live workflow runs", () => {
  it("end in a legal state with an audit trail made of exactly the controls answered 2xx", async () => {
    let runNo = 0;
    let controls = 0;
    const tally = new Map<string, number>();
    const count = (k: string) => tally.set(k, (tally.get(k) ?? 0) + 1);
    await runProperty({
      label: "control races",
      base: BASE_SEED,
      numRuns: RUNS,
      arb: scheduleArb,
      replay: "npx vitest run --project reliability e2e/reliability/control-races.test.ts",
      test: async ({ rows, rounds }) => {
        const n = ++runNo;
        const trigger = await request("POST", `/api/agents/webhook/${agentId}`, { rows });
        expect(trigger.status).toBe(202);
        const runId: string = trigger.body.run_id;
        const sent: Sent[] = [];
        let i = 0;
        for (const round of rounds) {
          await new Promise((r) => setTimeout(r, round.delayMs));
          sent.push(
            ...(await Promise.all(round.actions.map((a) => act(runId, a, `race-${n}-${i++}`, round.resolution)))),
          );
        }
        controls += sent.length;
        for (const s of sent) count(`${s.action} ${s.status}`);
        const run = await settled(runId);
        count(`final ${run.status}`);
        const events: { action: string; from: string | null; to: string; triggered_by: string | null }[] = run.events;
        /** A 200 resume whose answer has no entry of its own: it found the run running (NO_OP_CONTROLS). */
        const isNoOp = (s: (typeof sent)[number]) =>
          s.action === "resume" &&
          s.status === 200 &&
          !s.body.events.some((e: any) => e.triggered_by === s.label && e.action === "resume");
        const where = `run ${runId}\n${events.map((e) => `${e.action} ${e.from}->${e.to} ${e.triggered_by ?? ""}`).join("\n")}\nsent: ${JSON.stringify(sent.map((s) => [s.label, s.action, s.status, s.sentAt, s.answeredAt]))}`;

        // Legal states and a legal path from the trigger to the final state.
        expect(RUN_STATUSES, where).toContain(run.status);
        expect(events[0], where).toMatchObject({ action: "trigger", from: null, to: "pending" });
        for (let k = 1; k < events.length; k++) {
          const e = events[k]!;
          expect(e.action in RUN_MOVES, `${where}\nevent ${k}`).toBe(true);
          expect(isLegalMove(e.from ?? "", e.to, e.action as RunMove), `${where}\nevent ${k}`).toBe(true);
          expect(e.from, `${where}\npath broken at ${k}`).toBe(events[k - 1]!.to);
        }
        expect(events.at(-1)!.to, where).toBe(run.status);

        // Every answer is a success or the refusal docs/workflows.md names, and refusals are consistent.
        for (const s of sent) {
          if (s.action === "approve") {
            expect([200, 204, 404, 409], `${where}\n${s.label}`).toContain(s.status);
            if (s.status === 404) expect(s.body.error.code).toBe("approval_not_found");
            if (s.status === 409) expect(s.body.error.code).toBe("invalid_state_transition");
            continue;
          }
          expect([200, 409], `${where}\n${s.label}: ${JSON.stringify(s.body)}`).toContain(s.status);
          if (s.status === 409) {
            expect(s.body.error.code).toBe("invalid_state_transition");
            expect(ALLOWED_FROM[s.action], `${where}\n${s.label}`).not.toContain(s.body.error.details.current_status);
          } else if (isNoOp(s)) {
            // A resume of a running run (docs/workflows.md allows it) changes nothing and is not recorded: its
            // answer is the run still running.
            expect(s.body.status, `${where}\n${s.label}`).toBe("running");
          } else {
            // The answer is the run as committed with this control in its trail.
            expect(
              s.body.events.some((e: any) => e.triggered_by === s.label && e.action === s.action),
              `${where}\n${s.label}`,
            ).toBe(true);
          }
        }

        // The trail's control entries are exactly the controls answered 2xx that changed the run
        // (every one but a no-op resume), once each, in causal order.
        const ok = sent.filter((s) => s.action !== "approve" && s.status === 200 && !isNoOp(s));
        const raced = events.filter((e) => e.triggered_by?.startsWith(`race-${n}-`));
        expect(raced.map((e) => e.triggered_by).sort(), where).toEqual(ok.map((s) => s.label).sort());
        for (const s of ok) expect(raced.find((e) => e.triggered_by === s.label)!.action, where).toBe(s.action);
        const position = (label: string) => events.findIndex((e) => e.triggered_by === label);
        for (const a of ok)
          for (const b of ok)
            if (a.answeredAt < b.sentAt)
              expect(position(a.label), `${where}\n${a.label} before ${b.label}`).toBeLessThan(position(b.label));

        // An auto-resume entry for each approval that answered `resumed: true`, and no other.
        const resumed = sent.filter((s) => s.action === "approve" && s.status === 200 && s.body.resumed).length;
        expect(events.filter((e) => e.triggered_by === "approvals").length, where).toBe(resumed);
        // Other entries are the engine's own moves (start, finish, fail).
        for (const e of events.slice(1)) {
          if (e.triggered_by === null) expect(["start", "finish", "fail"], `${where}\n${e.action}`).toContain(e.action);
        }
      },
    });
    console.log(
      `[fuzz] control races: ${runNo} runs, ${controls} concurrent controls and approvals: ` +
        JSON.stringify(Object.fromEntries([...tally].sort())),
    );
  });
});

describe("the server", () => {
  it("logged no uncaught exception or unhandled rejection during the races", () => {
    expectNoUncaught(mark);
  });
});
