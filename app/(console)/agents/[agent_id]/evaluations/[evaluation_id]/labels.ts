// How an evaluation names its two sides: "version 2 (draft)" against "what was recorded".
import type { EvaluationRecord } from "@/lib/evaluations/schemas";

export const versionLabel = (e: Pick<EvaluationRecord, "candidate">) =>
  `version ${e.candidate.version}${e.candidate.draft ? " (draft)" : ""}`;
export const baselineLabel = (e: Pick<EvaluationRecord, "baseline">) =>
  e.baseline.kind === "recorded" ? "what was recorded" : `version ${e.baseline.version}`;

/** What the evaluation has done so far: its cases (the list, the latency chart) are read again when it changes. */
export const movedOf = (e: Pick<EvaluationRecord, "status" | "progress">) => `${e.status}-${e.progress.done}`;
