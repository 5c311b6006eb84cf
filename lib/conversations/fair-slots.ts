// The reply slots of a process, shared between organizations (docs/decisions.md, 58): work-conserving
// with a reserve. An organization below its share (`share` slots) takes any free slot; above it, it
// borrows idle slots as long as `reserve` of them stay free, so that one organization alone uses
// nearly all of them while a newcomer still finds a slot at once, even when the borrowed replies
// hang (a reply in flight cannot be taken back). Waiting replies queue per organization; each free
// slot goes to the waiting organization that holds the fewest (max-min fairness), the earliest
// waiter first among equals.

interface Waiter {
  seq: number;
  grant: () => void;
}

interface Org {
  active: number;
  queue: Waiter[];
}

export interface SlotLimits {
  /** Slots of the process. */
  capacity: number;
  /** Slots an organization may always take while any is free. */
  share: number;
  /** Slots kept free for organizations below their share: others borrow only beyond them. */
  reserve: number;
}

export class FairSlots {
  private active = 0;
  private queued = 0;
  private seq = 0;
  private readonly orgs = new Map<string, Org>();

  constructor(private readonly limits: () => SlotLimits) {}

  /** Replies waiting for a slot: all of them, or one organization's. */
  waiting(organizationId?: string): number {
    return organizationId === undefined ? this.queued : (this.orgs.get(organizationId)?.queue.length ?? 0);
  }

  /** Slots held: all of them, or one organization's. */
  held(organizationId?: string): number {
    return organizationId === undefined ? this.active : (this.orgs.get(organizationId)?.active ?? 0);
  }

  /** Resolves with the release of a slot, at once when the organization may take a free one and nobody waits. */
  async acquire(organizationId: string): Promise<() => void> {
    const org = this.org(organizationId);
    if (this.queued > 0 || !this.mayTake(org)) {
      await new Promise<void>((grant) => {
        org.queue.push({ seq: this.seq++, grant });
        this.queued++;
        this.dispatch();
      });
    } else this.take(org);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      org.active--;
      this.active--;
      this.dispatch();
      this.forget(organizationId, org);
    };
  }

  private org(id: string): Org {
    let org = this.orgs.get(id);
    if (!org) this.orgs.set(id, (org = { active: 0, queue: [] }));
    return org;
  }

  private forget(id: string, org: Org) {
    if (org.active === 0 && org.queue.length === 0) this.orgs.delete(id);
  }

  private mayTake(org: Org): boolean {
    const { capacity, share, reserve } = this.limits();
    const free = capacity - this.active;
    return free > 0 && (org.active < share || free > reserve);
  }

  private take(org: Org) {
    org.active++;
    this.active++;
  }

  /** Hands free slots to waiting organizations, the one holding fewest first. */
  private dispatch() {
    for (;;) {
      let next: Org | undefined;
      for (const org of this.orgs.values()) {
        if (!org.queue.length || !this.mayTake(org)) continue;
        if (!next || org.active < next.active || (org.active === next.active && org.queue[0]!.seq < next.queue[0]!.seq))
          next = org;
      }
      if (!next) return;
      const waiter = next.queue.shift()!;
      this.queued--;
      this.take(next);
      waiter.grant();
    }
  }
}
