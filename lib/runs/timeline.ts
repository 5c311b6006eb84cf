// An item's step timeline (docs/workflows.md, "Step timeline"): what each step did to it, when, for
// how long, and on which attempt. The engine stores a compact trace per item (run_items.steps, one
// segment per evaluation of its expressions and one per call it made, appended on every pass: a
// retry, an approval or a handover adds to it) and the read expands it into one entry per step.
import { z } from "zod";
import type { ItemResult } from "../expressions";
import { TimelineEntry as Entry } from "./schemas";

/**
 * One stretch of the item's way, as stored. An evaluation ran the item from step `from` to step
 * `to` (steps in between were applied, but for `unmet`, whose `when` was false) and ended there
 * with `end`: `done` (no step left), `stop` (a fail/review/skip step matched), `call` (an
 * http/llm/wait step to perform: a call segment follows unless the pass stopped) or `error` (the
 * expression of step `to` failed). A call performed step `step` for `ms` milliseconds. `at` is the
 * epoch milliseconds of its start (an evaluation's items share their request's start).
 */
export type Segment =
  | {
      at: number;
      from: number;
      to: number;
      end: "done" | "stop" | "call" | "error";
      unmet?: number[];
      error?: string;
    }
  /** A call; an http step's answer (`response`, when small) and an llm step's `tokens` are kept for replays (lib/evaluations). */
  | { at: number; step: number; ms: number; error?: string; response?: unknown; tokens?: number };

/** The segment of one evaluator result for an item that entered at step `from`. */
export function evaluationSegment(r: ItemResult, from: number, at: number, stepCount: number, error?: string): Segment {
  const to = r.k === "done" ? stepCount : r.k === "error" ? r.blame : r.step;
  return {
    at,
    from,
    to,
    end: r.k,
    ...(r.unmet ? { unmet: r.unmet } : {}),
    ...(error !== undefined && r.k !== "call" && r.k !== "done" ? { error } : {}),
  };
}

export type TimelineEntry = z.output<typeof Entry>;
type StepOutcome = TimelineEntry["outcome"];
/** What the timeline needs of a definition's step. */
type StepName = Pick<TimelineEntry, "step_id" | "type">;

const StepNames = z.object({ steps: z.array(z.object({ id: z.string(), type: Entry.shape.type })) });

/** The ids and types of a stored definition's steps (without compiling its expressions as parsing it whole would). */
export function stepsOf(definition: unknown): StepName[] {
  return (StepNames.safeParse(definition).data?.steps ?? []).map((s) => ({ step_id: s.id, type: s.type }));
}

const STOP_OUTCOME = { fail: "failed", review: "needs_review", skip: "skipped" } as const;

/**
 * The stored trace as one entry per step reached, in order. Steps a definition no longer has (it
 * cannot change under a run, but a trace is never trusted blindly) are named by their index.
 */
export function expandTimeline(steps: readonly StepName[], trace: unknown): TimelineEntry[] {
  if (!Array.isArray(trace)) return [];
  const attempts = new Map<number, number>();
  const entries: TimelineEntry[] = [];
  const add = (index: number, at: number, outcome: StepOutcome, duration: number | null, error?: string) => {
    const attempt = (attempts.get(index) ?? 0) + 1;
    attempts.set(index, attempt);
    const step = steps[index];
    entries.push({
      step_id: step?.step_id ?? `#${index}`,
      type: step?.type ?? "transform",
      attempt,
      started_at: new Date(at).toISOString(),
      duration_ms: duration,
      outcome,
      error: error ?? null,
    });
  };
  for (const s of trace as Segment[]) {
    if ("step" in s) {
      add(s.step, s.at, s.error === undefined ? "completed" : "failed", s.ms, s.error);
      continue;
    }
    const unmet = new Set(s.unmet);
    for (let i = s.from; i < s.to; i++) add(i, s.at, unmet.has(i) ? "not_applied" : "completed", null);
    if (s.end === "error") add(s.to, s.at, "failed", null, s.error);
    else if (s.end === "stop") {
      const type = steps[s.to]?.type;
      add(s.to, s.at, (type && STOP_OUTCOME[type as keyof typeof STOP_OUTCOME]) ?? "completed", null, s.error);
    }
  }
  return entries;
}
