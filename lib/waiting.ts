// Waiting for a row to change, for requests that hold on (long polling, the synchronous trigger's
import { processOnce } from "./process-state";
// wait). A change made by this process wakes its waiters at once (`notify`); changes made by other
// processes are seen by one shared poller per kind of row, which checks every waited-on id in a
// single query. State lives on globalThis: Next bundles route handlers and the in-process worker
// separately, and both must see the same waiters.

export interface Watcher {
  /** Resolves true as soon as `id` is reported changed, false when `timeoutMs` runs out first. */
  wait(id: string, timeoutMs: number): Promise<boolean>;
  /** Wakes every waiter of `id` (call after the change committed). */
  notify(id: string): void;
}

type Wake = () => void;

/**
 * `changed(ids)` returns the ids, among those waited on, whose row no longer is what their
 * waiters wait past (e.g. messages no longer processing).
 */
export function watcher(name: string, changed: (ids: string[]) => Promise<string[]>, pollMs = 250): Watcher {
  const state = processOnce<{ waiters: Map<string, Set<Wake>>; timer?: NodeJS.Timeout }>(`watcher_${name}`, () => ({
    waiters: new Map(),
  }));

  const notify = (id: string) => {
    const set = state.waiters.get(id);
    if (!set) return;
    state.waiters.delete(id);
    for (const wake of set) wake();
  };

  const ensurePoller = () => {
    if (state.timer || state.waiters.size === 0) return;
    state.timer = setTimeout(async () => {
      try {
        const ids = [...state.waiters.keys()];
        if (ids.length) for (const id of await changed(ids)) notify(id);
      } catch {
        // The next round retries; a waiter also ends at its own deadline.
      } finally {
        state.timer = undefined;
        ensurePoller();
      }
    }, pollMs);
    state.timer.unref?.();
  };

  const wait = (id: string, timeoutMs: number) =>
    new Promise<boolean>((resolve) => {
      let set = state.waiters.get(id);
      if (!set) state.waiters.set(id, (set = new Set()));
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const current = state.waiters.get(id);
        current?.delete(wake);
        if (current?.size === 0) state.waiters.delete(id);
        resolve(false);
      }, timeoutMs);
      set.add(wake);
      ensurePoller();
    });

  return { wait, notify };
}
