// Statements that many requests send at once, sent once for all of them: at most one statement of a
// batcher is on its way at a time, and the calls that arrive meanwhile wait for it and go together
// in the next (as a database groups commits). A quiet process sends each call at once, alone: no
// timer, no added wait; under load one statement serves many requests, which saves the round trip's
// CPU on both sides (docs/decisions.md 67).
import type { Database } from "./index";

interface Waiter<O> {
  resolve: (out: O) => void;
  reject: (err: unknown) => void;
}

export class InFlightBatcher<I, O> {
  private inputs: I[] = [];
  private waiters: Waiter<O>[] = [];
  private busy = false;

  /** `run` answers one output per input, in the inputs' order; its failure fails the whole batch. */
  constructor(private readonly run: (inputs: I[]) => Promise<O[]>) {}

  load(input: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.inputs.push(input);
      this.waiters.push({ resolve, reject });
      this.send();
    });
  }

  private send() {
    if (this.busy || this.inputs.length === 0) return;
    const inputs = this.inputs;
    const waiters = this.waiters;
    this.inputs = [];
    this.waiters = [];
    this.busy = true;
    // A synchronous throw of `run` fails the batch as a rejection would.
    Promise.resolve()
      .then(() => this.run(inputs))
      .then(
        (outputs) => waiters.forEach((w, i) => w.resolve(outputs[i]!)),
        (err: unknown) => waiters.forEach((w) => w.reject(err)),
      )
      .finally(() => {
        this.busy = false;
        this.send();
      });
  }
}

/** One batcher per database (tests open several in turn), made on first use. */
export function batcherPerDatabase<I, O>(
  run: (db: Database, inputs: I[]) => Promise<O[]>,
): (db: Database) => InFlightBatcher<I, O> {
  const batchers = new WeakMap<Database, InFlightBatcher<I, O>>();
  return (db) => {
    let batcher = batchers.get(db);
    if (!batcher) batchers.set(db, (batcher = new InFlightBatcher((inputs) => run(db, inputs))));
    return batcher;
  };
}
