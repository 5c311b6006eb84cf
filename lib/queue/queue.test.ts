import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../testing/db";
import { enqueue, queue, stopQueue, work } from "./index";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await stopQueue();
  await db.dispose();
});

describe("queue", () => {
  it("delivers a job enqueued in a committed transaction, and none from a rolled-back one", async () => {
    const seen: string[] = [];
    const stop = await work("reply", async (data) => {
      seen.push(data.tag);
    });
    await db.prisma.$transaction(async (tx) => {
      await tx.organization.create({ data: { id: "org_q1", name: "q1" } });
      await enqueue("reply", { tag: "committed" }, { tx });
    });
    await db.prisma
      .$transaction(async (tx) => {
        await enqueue("reply", { tag: "rolled-back" }, { tx });
        throw new Error("abort");
      })
      .catch(() => {});
    const deadline = Date.now() + 10_000;
    while (!seen.includes("committed") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 700));
    expect(seen).toEqual(["committed"]);
    expect(await db.prisma.organization.count({ where: { id: "org_q1" } })).toBe(1);
    await stop();
    expect(await queue()).toBeTruthy();
  });
});
