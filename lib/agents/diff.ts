// The difference between two versions of an agent's configuration (docs/api.md, Versions), as a
// list of {path, change, from, to}. Structure-aware: objects are compared key by key, a workflow's
// steps by their `id` (a step added, removed or changed is one entry naming it; a new order of the
// same steps is one `moved` entry), any other array as one value. Values are compared as stored and
// shown as every agent answer shows them (./redact.ts): a credential that changed is an entry whose
// both sides read "[redacted]", never its value.
import type { z } from "zod";
import { redactConfig } from "./redact";
import type { VersionChange } from "./schemas";

export type Change = z.output<typeof VersionChange>;

/** What a version holds: everything of an agent but its name, archive state and project. */
export interface VersionConfig {
  runtime: unknown;
  workflow: unknown;
  callbackUrl: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** JSON with object keys sorted: equal configurations give equal text, whatever their key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

export const sameConfig = (a: VersionConfig, b: VersionConfig) =>
  canonical({ r: a.runtime, w: a.workflow ?? null, c: a.callbackUrl ?? null }) ===
  canonical({ r: b.runtime, w: b.workflow ?? null, c: b.callbackUrl ?? null });

/** Steps that all have distinct string ids: compared by id. */
function stepIds(steps: unknown): string[] | null {
  if (!Array.isArray(steps)) return null;
  const ids = steps.map((s) => (isObject(s) && typeof s.id === "string" ? s.id : null));
  if (ids.some((id) => id === null) || new Set(ids).size !== ids.length) return null;
  return ids as string[];
}

const shown = (v: unknown) => (v === undefined ? null : v);

/** Compares raw `a` and `b` at `path`; `sa` and `sb` are the same values as answers show them. */
function walk(path: string[], a: unknown, b: unknown, sa: unknown, sb: unknown, out: Change[]) {
  if (canonical(a) === canonical(b) && (a === undefined) === (b === undefined)) return;
  const at = path.join(".");
  if (a === undefined || a === null) {
    if (b !== undefined && b !== null) out.push({ path: at, change: "added", from: null, to: shown(sb) });
    else out.push({ path: at, change: "changed", from: shown(sa), to: shown(sb) });
    return;
  }
  if (b === undefined || b === null) {
    out.push({ path: at, change: "removed", from: shown(sa), to: null });
    return;
  }
  if (isObject(a) && isObject(b) && isObject(sa) && isObject(sb)) {
    const keys = [...Object.keys(a), ...Object.keys(b).filter((k) => !(k in a))];
    for (const k of keys) walk([...path, k], a[k], b[k], sa[k], sb[k], out);
    return;
  }
  const idsA = path.at(-1) === "steps" ? stepIds(a) : null;
  const idsB = path.at(-1) === "steps" ? stepIds(b) : null;
  if (idsA && idsB) {
    const [stepsA, stepsB, shownA, shownB] = [a, b, sa, sb] as [unknown[], unknown[], unknown[], unknown[]];
    for (const [i, id] of idsA.entries()) {
      const j = idsB.indexOf(id);
      if (j < 0) out.push({ path: `${at}.${id}`, change: "removed", from: shownA[i], to: null });
      else if (canonical(stepsA[i]) !== canonical(stepsB[j])) {
        out.push({ path: `${at}.${id}`, change: "changed", from: shownA[i], to: shownB[j] });
      }
    }
    for (const [j, id] of idsB.entries()) {
      if (!idsA.includes(id)) out.push({ path: `${at}.${id}`, change: "added", from: null, to: shownB[j] });
    }
    const keptA = idsA.filter((id) => idsB.includes(id));
    const keptB = idsB.filter((id) => idsA.includes(id));
    if (keptA.join("\u0000") !== keptB.join("\u0000")) out.push({ path: at, change: "moved", from: keptA, to: keptB });
    return;
  }
  out.push({ path: at, change: "changed", from: shown(sa), to: shown(sb) });
}

/** The changes that lead from configuration `a` to `b`. */
export function diffConfigs(a: VersionConfig, b: VersionConfig): Change[] {
  const out: Change[] = [];
  const parts = (c: VersionConfig) => ({
    runtime: c.runtime,
    workflow: c.workflow ?? null,
    callback_url: c.callbackUrl,
  });
  const [ra, rb] = [parts(a), parts(b)];
  const [sa, sb] = [redactConfig(ra), redactConfig(rb)];
  for (const k of ["runtime", "workflow", "callback_url"] as const) walk([k], ra[k], rb[k], sa[k], sb[k], out);
  return out;
}
