// The text diff of a case (docs/api.md, Evaluations): the baseline's output turned into the
// candidate's, word by word for replies and line by line for JSON (a run's items), by jsdiff within
// a time bound (outputs are as long as a model made them: past the bound, no diff).
import { diffLines, diffWords } from "diff";

export type DiffPart = { op: "equal" | "insert" | "delete"; text: string };

/** Longest time a diff may take before it is given up (null), in milliseconds. */
const DIFF_TIMEOUT_MS = 100;

/** A reply (text), turns of replies (separated by a rule) or anything else as indented JSON. */
function textOf(output: unknown): { text: string; words: boolean } {
  if (typeof output === "string") return { text: output, words: true };
  if (Array.isArray(output) && output.every((o) => o === null || typeof o === "string")) {
    return { text: output.map((o, i) => `--- turn ${i + 1} ---\n${o ?? "(no reply)"}`).join("\n"), words: true };
  }
  return { text: JSON.stringify(output ?? null, null, 2), words: false };
}

export function diffOf(baseline: unknown, candidate: unknown): DiffPart[] | null {
  const a = textOf(baseline);
  const b = textOf(candidate);
  const options = { timeout: DIFF_TIMEOUT_MS };
  const changes = a.words && b.words ? diffWords(a.text, b.text, options) : diffLines(a.text, b.text, options);
  if (!changes) return null;
  return changes.map((c) => ({ op: c.added ? "insert" : c.removed ? "delete" : "equal", text: c.value }));
}
