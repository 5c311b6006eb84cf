// Waiting for an assistant message to leave `processing` (long polling with `Prefer: wait=N`): the
// producer in this process notifies at once; other processes' replies are seen by the poller.
import { prisma } from "../db";
import { watcher } from "../waiting";

const replies = watcher("replies", async (ids) => {
  const db = await prisma();
  const done = await db.message.findMany({
    where: { id: { in: ids }, status: { not: "processing" } },
    select: { id: true },
  });
  return done.map((m) => m.id);
});

/** Called once a reply's outcome is stored. */
export const notifyReplyDone = (messageId: string) => replies.notify(messageId);

/** Resolves true when the message left `processing`, false when `timeoutMs` ran out first. */
export const waitForReply = (messageId: string, timeoutMs: number) => replies.wait(messageId, timeoutMs);
