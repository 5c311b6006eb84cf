// Read-only: the index (position in the input) of some of a run's items, for the console's review
// queue, which names items the way the items table does.
import { prisma } from "../db";

export async function itemIndexes(opts: { runId: string; itemIds: string[] }): Promise<Map<string, number>> {
  if (opts.itemIds.length === 0) return new Map();
  const db = await prisma();
  const rows = await db.runItem.findMany({
    where: { runId: opts.runId, id: { in: opts.itemIds } },
    select: { id: true, index: true },
  });
  return new Map(rows.map((r) => [r.id, r.index]));
}
