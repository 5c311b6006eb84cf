import { describe, expect, it } from "vitest";
import { FairSlots, type SlotLimits } from "./fair-slots";

/** Acquires without waiting for the grant: the release once granted, and whether it was. */
function ask(slots: FairSlots, org: string) {
  const ticket = { granted: false, release: undefined as (() => void) | undefined };
  void slots.acquire(org).then((release) => {
    ticket.granted = true;
    ticket.release = release;
  });
  return ticket;
}
/** Lets the grants' promise callbacks run. */
const settle = () => new Promise((r) => setImmediate(r));

const slots = (limits: SlotLimits) => new FairSlots(() => limits);

describe("reply slots shared between organizations", () => {
  it("lends an organization alone every slot but the reserve, and keeps the reserve for a newcomer", async () => {
    const s = slots({ capacity: 8, share: 2, reserve: 2 });
    const a = Array.from({ length: 8 }, () => ask(s, "A"));
    await settle();
    expect(a.filter((t) => t.granted)).toHaveLength(6);
    expect([s.held("A"), s.waiting("A"), s.waiting()]).toEqual([6, 2, 2]);
    // B finds its share free at once although A's six never end.
    const b = [ask(s, "B"), ask(s, "B"), ask(s, "B")];
    await settle();
    expect(b.map((t) => t.granted)).toEqual([true, true, false]);
    expect([s.held(), s.held("B"), s.waiting("B")]).toEqual([8, 2, 1]);
  });

  it("gives each free slot to the waiting organization that holds the fewest, the earliest waiter among equals", async () => {
    const s = slots({ capacity: 4, share: 4, reserve: 0 });
    const a = Array.from({ length: 4 }, () => ask(s, "A"));
    await settle();
    const b1 = ask(s, "B");
    const c1 = ask(s, "C");
    const b2 = ask(s, "B");
    await settle();
    expect([b1.granted, c1.granted, b2.granted]).toEqual([false, false, false]);
    a[0]!.release!();
    await settle();
    expect([b1.granted, c1.granted]).toEqual([true, false]); // B and C hold none: B waited first
    a[1]!.release!();
    await settle();
    expect([c1.granted, b2.granted]).toEqual([true, false]); // C holds none, B one
    a[2]!.release!();
    await settle();
    expect(b2.granted).toBe(true); // B and C hold one each: B's waiter is older
    expect([s.held("A"), s.held("B"), s.held("C"), s.waiting()]).toEqual([1, 2, 1, 0]);
  });

  it("lets an organization below its share take a reserved slot that one above its share may not", async () => {
    const s = slots({ capacity: 4, share: 1, reserve: 2 });
    const a = [ask(s, "A"), ask(s, "A"), ask(s, "A")];
    await settle();
    expect(a.map((t) => t.granted)).toEqual([true, true, false]); // the third would leave 1 < reserve free
    const b = [ask(s, "B"), ask(s, "B")];
    await settle();
    expect(b.map((t) => t.granted)).toEqual([true, false]); // B's share is 1; 1 free = the reserve
    a[0]!.release!(); // 2 free: A (1 held) and B (1 held) are both at their share; 2 > reserve is false
    await settle();
    expect([a[2]!.granted, b[1]!.granted]).toEqual([false, false]);
    const c = ask(s, "C"); // below its share: the reserve is for it
    await settle();
    expect(c.granted).toBe(true);
    expect([s.held("A"), s.held("B"), s.held("C"), s.waiting()]).toEqual([1, 1, 1, 2]);
  });

  it("forgets an organization that holds and waits for nothing; a second release changes nothing", async () => {
    const s = slots({ capacity: 2, share: 1, reserve: 0 });
    const release = await s.acquire("A");
    expect(s.held("A")).toBe(1);
    release();
    release();
    expect([s.held(), s.held("A"), s.waiting()]).toEqual([0, 0, 0]);
    const again = [await s.acquire("A"), await s.acquire("A")];
    expect(s.held()).toBe(2);
    again.forEach((r) => r());
    expect(s.held()).toBe(0);
  });

  it("reads its limits at each decision, so a changed setting applies to the next grant", async () => {
    const limits = { capacity: 1, share: 1, reserve: 0 };
    const s = new FairSlots(() => limits);
    await s.acquire("A");
    const waiting = ask(s, "A");
    await settle();
    expect(waiting.granted).toBe(false);
    limits.capacity = 2;
    await s.acquire("B").then((r) => r()); // a release is a decision point
    await settle();
    expect(waiting.granted).toBe(true);
  });
});
