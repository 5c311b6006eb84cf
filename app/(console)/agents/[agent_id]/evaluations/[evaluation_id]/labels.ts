// How an evaluation names its two sides: "version 2 (draft)" against "what was recorded".
import type { Evaluation } from "@/components/console/evaluation-queries";

export const versionLabel = (e: Pick<Evaluation, "candidate">) =>
  `version ${e.candidate.version}${e.candidate.draft ? " (draft)" : ""}`;
export const baselineLabel = (e: Pick<Evaluation, "baseline">) =>
  e.baseline.kind === "recorded" ? "what was recorded" : `version ${e.baseline.version}`;
