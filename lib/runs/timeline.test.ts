import { describe, expect, it } from "vitest";
import { evaluationSegment, expandTimeline, stepsOf, type Segment } from "./timeline";

const STEPS = [
  { step_id: "prep", type: "transform" },
  { step_id: "gate", type: "review" },
  { step_id: "send", type: "http" },
  { step_id: "tag", type: "transform" },
] as const;
const T0 = Date.UTC(2026, 10, 28, 12, 0, 0);

describe("step timeline", () => {
  it("expands evaluations step by step and calls with their duration, counting attempts per step", () => {
    const trace: Segment[] = [
      evaluationSegment({ k: "call", step: 2, json: "{}", unmet: [1] }, 0, T0, 4),
      { at: T0 + 5, step: 2, ms: 120, error: 'Step "send" (http): the upstream returned an error' },
      // a retry of the run continues at the failed step
      evaluationSegment({ k: "call", step: 2, json: "{}" }, 2, T0 + 60_000, 4),
      { at: T0 + 60_001, step: 2, ms: 80 },
      evaluationSegment({ k: "done", json: "{}" }, 3, T0 + 60_100, 4),
    ];
    expect(expandTimeline(STEPS, trace)).toEqual([
      {
        step_id: "prep",
        type: "transform",
        attempt: 1,
        started_at: "2026-11-28T12:00:00.000Z",
        duration_ms: null,
        outcome: "completed",
        error: null,
      },
      expect.objectContaining({ step_id: "gate", attempt: 1, outcome: "not_applied" }),
      expect.objectContaining({
        step_id: "send",
        attempt: 1,
        started_at: "2026-11-28T12:00:00.005Z",
        duration_ms: 120,
        outcome: "failed",
        error: 'Step "send" (http): the upstream returned an error',
      }),
      expect.objectContaining({ step_id: "send", attempt: 2, duration_ms: 80, outcome: "completed", error: null }),
      expect.objectContaining({ step_id: "tag", attempt: 1, outcome: "completed" }),
    ]);
  });

  it("ends an evaluation at the step that stopped it: review, fail, skip, or an expression error", () => {
    const at = (r: Parameters<typeof evaluationSegment>[0], error?: string) =>
      expandTimeline(STEPS, [evaluationSegment(r, 0, T0, 4, error)]).at(-1);
    expect(at({ k: "stop", step: 1, json: "{}" }, "needs a person")).toMatchObject({
      step_id: "gate",
      outcome: "needs_review",
      error: "needs a person",
    });
    const steps = [
      { step_id: "a", type: "fail" },
      { step_id: "b", type: "skip" },
    ] as const;
    expect(expandTimeline(steps, [evaluationSegment({ k: "stop", step: 0, json: "{}" }, 0, T0, 2, "no")])).toEqual([
      expect.objectContaining({ step_id: "a", type: "fail", outcome: "failed", error: "no" }),
    ]);
    expect(
      expandTimeline(steps, [evaluationSegment({ k: "stop", step: 1, json: "{}", unmet: [0] }, 0, T0, 2)]),
    ).toEqual([
      expect.objectContaining({ step_id: "a", outcome: "not_applied" }),
      expect.objectContaining({ step_id: "b", outcome: "skipped", error: null }),
    ]);
    // An expression error in step 3 with the item starting again at step 0: steps 0-2 ran, 3 failed.
    const error = { k: "error", step: 0, blame: 3, json: "{}", message: "boom" } as const;
    expect(expandTimeline(STEPS, [evaluationSegment(error, 0, T0, 4, "Step tag: boom")]).map((e) => e.outcome)).toEqual(
      ["completed", "completed", "completed", "failed"],
    );
  });

  it("reads nothing into a missing or foreign trace, and names a step it does not know by its index", () => {
    expect(expandTimeline(STEPS, null)).toEqual([]);
    expect(expandTimeline(STEPS, { not: "a list" })).toEqual([]);
    expect(expandTimeline(STEPS, [{ at: T0, step: 9, ms: 1 }])).toEqual([
      expect.objectContaining({ step_id: "#9", attempt: 1, outcome: "completed" }),
    ]);
  });

  it("reads a definition's step ids and types without compiling it, and nothing from a broken one", () => {
    expect(stepsOf({ steps: [{ id: "a", type: "http", url: "x" }], other: 1 })).toEqual([
      { step_id: "a", type: "http" },
    ]);
    expect(stepsOf({ steps: [{ id: "a", type: "bogus" }] })).toEqual([]);
    expect(stepsOf(null)).toEqual([]);
  });
});
