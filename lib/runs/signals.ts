// Same-process notice of the moves that controls and approvals make, so that an engine running in
// this process sees a pause, a cancel or a newer epoch at its very next item boundary (the status
// poll of lib/workflow/engine.ts covers engines in other processes). Kept on globalThis: Next
// bundles the route handlers and the instrumentation-started worker separately.
import type { RunStatus } from "./statuses";
import { processOnce } from "../process-state";

export interface RunNotice {
  status: RunStatus;
  epoch: number;
}
type Listener = (notice: RunNotice) => void;

const listeners = processOnce("runListeners", () => new Map<string, Set<Listener>>());
const everyRun = processOnce("allRunListeners", () => new Set<(runId: string, notice: RunNotice) => void>());

/** Called after a move has committed: every listener of the run hears it synchronously. */
export function announceRun(runId: string, notice: RunNotice) {
  for (const listener of listeners.get(runId) ?? []) listener(notice);
  for (const listener of everyRun) listener(runId, notice);
}

/** Hears every announced move (long-poll waiters); registered once per bundle. */
export function listenToAllRuns(listener: (runId: string, notice: RunNotice) => void) {
  everyRun.add(listener);
}

export function listenToRun(runId: string, listener: Listener): () => void {
  let set = listeners.get(runId);
  if (!set) listeners.set(runId, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(runId);
  };
}
