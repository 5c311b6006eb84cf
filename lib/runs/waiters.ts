// Waiting for a run's status to change (long polling GET run with `Prefer: wait=N`): moves made in
// this process are announced at once (./signals.ts); other processes' moves are seen by the poller.
import { prisma } from "../db";
import { watcher } from "../waiting";
import { listenToAllRuns } from "./signals";
import { RUN_STATUSES, type RunStatus } from "./state";

// A waiter's key is the run and the status it waits past.
const key = (runId: string, status: string) => `${runId}|${status}`;

const runs = watcher("runs", async (keys) => {
  const wanted = keys.map((k) => k.split("|") as [string, string]);
  const db = await prisma();
  const rows = await db.run.findMany({
    where: { id: { in: [...new Set(wanted.map(([id]) => id))] } },
    select: { id: true, status: true },
  });
  const now = new Map(rows.map((r) => [r.id, r.status]));
  return wanted.filter(([id, status]) => now.get(id) !== status).map(([id, status]) => key(id, status));
});

listenToAllRuns((runId, notice) => {
  for (const status of RUN_STATUSES) if (status !== notice.status) runs.notify(key(runId, status));
});

/** Runs in these states never move again: nothing to wait for. */
const FINAL: readonly string[] = ["completed", "cancelled"];

/** Resolves true when the run left `status`, false when `timeoutMs` ran out first. */
export async function waitForRunChange(runId: string, status: RunStatus | string, timeoutMs: number) {
  if (FINAL.includes(status)) return false;
  return runs.wait(key(runId, status), timeoutMs);
}
