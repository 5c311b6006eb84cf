// Wake-ups for synchronous triggers waiting on an assistant message. A reply produced by this
// process's worker wakes its waiter at once (notifyReplyDone); replies produced by other worker
// processes are seen by one shared poller that checks all waiting messages in a single query.
// State lives on globalThis: Next bundles the routes and the instrumentation-started worker
// separately, and both must see the same waiters.
import { prisma } from "../db";

type Wake = () => void;
const g = globalThis as unknown as {
  __awsReplyWaiters?: Map<string, Set<Wake>>;
  __awsReplyPoller?: NodeJS.Timeout;
};
const waiters = (g.__awsReplyWaiters ??= new Map());

/** Called by the reply job once a message left `processing`. */
export function notifyReplyDone(messageId: string) {
  const set = waiters.get(messageId);
  if (!set) return;
  waiters.delete(messageId);
  for (const wake of set) wake();
}

const POLL_MS = 250;

function ensurePoller() {
  if (g.__awsReplyPoller || waiters.size === 0) return;
  g.__awsReplyPoller = setTimeout(async () => {
    try {
      const ids = [...waiters.keys()];
      if (ids.length) {
        const db = await prisma();
        const done = await db.message.findMany({
          where: { id: { in: ids }, status: { not: "processing" } },
          select: { id: true },
        });
        for (const { id } of done) notifyReplyDone(id);
      }
    } catch {
      // The next round retries; a waiter also ends at its own deadline.
    } finally {
      g.__awsReplyPoller = undefined;
      ensurePoller();
    }
  }, POLL_MS);
  g.__awsReplyPoller.unref?.();
}

/**
 * Starts listening for `messageId` (before its job can run, so that no wake-up is missed).
 * `wait` resolves true when the message left `processing`, false when `timeoutMs` ran out first.
 */
export function listenForReply(messageId: string): {
  wait: (timeoutMs: number) => Promise<boolean>;
  cancel: () => void;
} {
  let done = false;
  let onDone: (() => void) | undefined;
  const wake = () => {
    done = true;
    onDone?.();
  };
  let set = waiters.get(messageId);
  if (!set) waiters.set(messageId, (set = new Set()));
  set.add(wake);
  const cancel = () => {
    const current = waiters.get(messageId);
    current?.delete(wake);
    if (current?.size === 0) waiters.delete(messageId);
  };
  return {
    cancel,
    wait: (timeoutMs) =>
      new Promise((resolve) => {
        if (done) return resolve(true);
        const timer = setTimeout(() => {
          cancel();
          resolve(false);
        }, timeoutMs);
        onDone = () => {
          clearTimeout(timer);
          resolve(true);
        };
        ensurePoller();
      }),
  };
}
