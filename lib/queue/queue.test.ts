import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../testing/db";
import { enqueue, queue, stopQueue, transactionWithJobs, work } from "./index";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await stopQueue();
  await db.dispose();
});

const jobsWith = async (messageId: string) =>
  Number(
    (
      await db.sql.query<{ n: string }>(`SELECT count(*) AS n FROM pgboss.job WHERE data->>'runId' = $1`, [messageId])
    )[0]!.n,
  );

describe("queue", () => {
  it("delivers a job enqueued in a committed transaction, and none from a rolled-back one", async () => {
    const seen: string[] = [];
    const stop = await work("run", async (data) => {
      seen.push(data.runId);
    });
    await transactionWithJobs(async (tx) => {
      await tx.organization.create({ data: { id: "org_q1", name: "q1" } });
      await enqueue("run", { runId: "committed" }, { tx });
    });
    await transactionWithJobs(async (tx) => {
      await enqueue("run", { runId: "rolled-back" }, { tx });
      throw new Error("abort");
    }).catch(() => {});
    const deadline = Date.now() + 10_000;
    while (!seen.includes("committed") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual(["committed"]);
    // The rolled-back job does not exist at all, so no later delivery can happen.
    expect(await jobsWith("rolled-back")).toBe(0);
    expect(await jobsWith("committed")).toBe(1);
    expect(await db.prisma.organization.count({ where: { id: "org_q1" } })).toBe(1);
    await stop();
    expect(await queue()).toBeTruthy();
  });

  it("refuses to enqueue data that does not match the queue's schema", async () => {
    await expect(enqueue("run", { runId: "" } as never)).rejects.toThrow();
    await expect(enqueue("run", { epoch: 1 } as never)).rejects.toThrow();
  });

  it("drops a stored job whose data does not parse instead of handing it to the handler", async () => {
    const handled: unknown[] = [];
    const stop = await work("run", async (data) => {
      handled.push(data);
    });
    const boss = await queue();
    // Written around enqueue's check, as an older release or a hand-made job would be.
    const bad = await boss.send("run", { nope: true });
    await enqueue("run", { runId: "run_good" });
    const deadline = Date.now() + 10_000;
    while (!handled.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const state = async () => (await boss.getJobById("run", bad!))?.state;
    while ((await state()) !== "completed" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await stop();
    expect(handled).toEqual([{ runId: "run_good", epoch: 0 }]);
    expect(await state()).toBe("completed");
  });
});
