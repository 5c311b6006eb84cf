import { describe, expect, it } from "vitest";
import { InFlightBatcher } from "./batch";

/** A `run` the test finishes by hand: each call waits until `settle` resolves or rejects it. */
function manualRun() {
  const calls: { inputs: number[]; settle: (err?: Error) => void }[] = [];
  const run = (inputs: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      calls.push({ inputs, settle: (err) => (err ? reject(err) : resolve(inputs.map((n) => `#${n}`))) });
    });
  return { calls, run };
}

/** Lets queued promise callbacks run (no timers involved). */
const drain = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe("InFlightBatcher", () => {
  it("sends a call at once alone, and the calls that arrive meanwhile together in the next", async () => {
    const { calls, run } = manualRun();
    const batcher = new InFlightBatcher(run);
    const first = batcher.load(1);
    await drain();
    expect(calls.map((c) => c.inputs)).toEqual([[1]]);
    const later = [batcher.load(2), batcher.load(3), batcher.load(2)];
    await drain();
    expect(calls).toHaveLength(1); // one statement on its way at a time
    calls[0]!.settle();
    expect(await first).toBe("#1");
    await drain();
    expect(calls.map((c) => c.inputs)).toEqual([[1], [2, 3, 2]]);
    calls[1]!.settle();
    expect(await Promise.all(later)).toEqual(["#2", "#3", "#2"]);
  });

  it("fails every call of a failed batch, and goes on with the next", async () => {
    const { calls, run } = manualRun();
    const batcher = new InFlightBatcher(run);
    const first = batcher.load(1);
    await drain();
    const failing = [batcher.load(2), batcher.load(3)];
    calls[0]!.settle();
    await first;
    await drain();
    const afterwards = batcher.load(4);
    calls[1]!.settle(new Error("connection lost"));
    for (const p of failing) await expect(p).rejects.toThrow("connection lost");
    await drain();
    expect(calls.map((c) => c.inputs)).toEqual([[1], [2, 3], [4]]);
    calls[2]!.settle();
    expect(await afterwards).toBe("#4");
  });

  it("fails the batch when `run` throws before its promise", async () => {
    const batcher = new InFlightBatcher<number, number>(() => {
      throw new Error("bad input");
    });
    await expect(batcher.load(1)).rejects.toThrow("bad input");
  });
});
