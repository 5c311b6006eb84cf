// The run engine: one pass over a run's pending items, started by a `run` job (./job.ts).
//
// 1. pending -> running (or carry on with a running run of the same epoch: a restarted job).
// 2. Materialise the items: the input is streamed and RunItem rows are written in batches, each
//    batch with items_total in one transaction; a restart skips the rows already written.
// 3. Process pending items in index order. Outcomes are written in the same transaction as the
//    run's counters (summary, item_counts), so the counts are always exact, and an item update
//    only applies to a still-pending item, so a reprocessed item is never counted twice; it appends
//    the item's trace of the pass (its step timeline, lib/runs/timeline.ts). Pure
//    items are written in small batches; an item that ran an http/llm/wait step is written at once.
//    Expressions are evaluated off this thread (lib/expressions): the pure items of a page go to the
//    evaluator together, an item with http/llm/wait steps ahead goes alone when its turn comes.
// 4. The run status is watched (polled) all along: pause and cancel take effect at the next item
//    boundary, cancel (or a newer engine epoch) also aborts an in-flight upstream call.
// 5. No pending item left: the output file is written, then running -> completed | needs_review
//    (conditional on every item being accounted for, so an approval racing the end is not lost).
import { randomUUID } from "node:crypto";
import { database, prisma } from "../db";
import { env, publicBaseUrl } from "../env";
import { expressionEvaluator, type Evaluator, type ItemResult } from "../expressions";
import { resolveFileRefs } from "../files/refs";
import type { Run } from "../generated/prisma/client";
import { Prisma as P } from "../generated/prisma/client";
import { newId } from "../ids";
import { log } from "../log";
import { enqueue, queueShare } from "../queue";
import { RuntimeConfig } from "../runtime/schema";
import { agentAt } from "../serving";
import { listenToRun } from "../runs/signals";
import { secretLookup } from "../secrets/service";
import { isRefused, moveRun, SYSTEM, utcNow } from "../runs/state";
import { InputError, readItems } from "./items";
import { writeOutput } from "./output";
import { StoredWorkflowDefinition, type WorkflowDefinition } from "./schema";
import { hasSideEffects, planOf, runItem, tracedOutcome, type StepContext, type Traced } from "./steps";

/** Small enough that, on PGlite's single connection, API requests get their turn between batches. */
const MATERIALISE_BATCH = 250;
const PAGE = 200;
const FLUSH_ITEMS = 200;
const FLUSH_MS = 200;
/** Buffered outcomes are written once their items' JSON reaches this size (items may be large). */
const FLUSH_CHARS = 16 * 1024 * 1024;
/** File links handed to steps are signed again once this old: each item gets at least 10 of their 15 minutes. */
const RESIGN_AFTER_MS = 5 * 60_000;

interface Finished {
  id: string;
  outcome: Traced;
}

type SignedInputs = Pick<StepContext, "inputs" | "evalInputs">;

/**
 * PGlite answers in-process in microtasks: without an explicit yield a busy engine would never let
 * the event loop read other HTTP requests (how long a GET waited: docs/benchmarks.md, "Figures
 * behind code comments").
 */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `json`: the item as JSON text, as it continues from `stepIndex`: its `result` once it stopped
 * somewhere (review, an exception, a fatal failure; an approval's modified_data replaces it), even
 * at step 0 (a modified item whose first step failed), else its data.
 */
type PendingItem = { id: string; index: number; json: string; stepIndex: number };

/**
 * The next page of pending items, in index order. Raw SQL: this read carries every item's JSON, and
 * through Prisma it was a large share of the engine's CPU per item (docs/benchmarks.md, `profile`).
 * As text: the evaluator takes JSON text, so the items are never parsed on this thread.
 */
async function pendingPage(runId: string): Promise<PendingItem[]> {
  const db = await database();
  return db.sql.query<PendingItem>(
    // The text is made for the page's rows only: in a plain SELECT it is computed for every pending
    // row the sort reads, so a long run's page read grew with its pending items (docs/benchmarks.md).
    `SELECT id, index, "stepIndex",
       (CASE WHEN result IS NOT NULL AND result <> 'null'::jsonb THEN result ELSE data END)::text AS json
     FROM (SELECT id, index, step_index AS "stepIndex", data, result FROM run_items
           WHERE run_id = $1 AND status = 'pending' ORDER BY index LIMIT ${PAGE}) page
     ORDER BY index`,
    [runId],
  );
}

/** Thrown inside a flush transaction when the run moved to a newer epoch: roll back, stop. */
class StaleEpoch extends Error {}

/** How often a pass checks whether other organizations' runs wait for a worker, and how long they must have waited. */
const SHARE_CHECK_MS = 1_000;
const SHARE_WAIT_SECONDS = 1;

/** The pass's own job, for fair share between organizations (ORG_RUN_CONCURRENCY). */
export interface PassJob {
  id: string;
  organizationId: string;
}

/**
 * Watches the run; `stop` is set when the run leaves `running` or another engine takes over. A
 * control made in this process is heard at once (so after its answer at most the item in flight
 * finishes); one made in another process is seen by the status poll.
 *
 * Fair share: while another organization's run waits for a worker, an organization keeps at most
 * ORG_RUN_CONCURRENCY passes running; its younger passes stop at the next item boundary (`yielded`)
 * and continue in a new job queued behind the waiting ones. Nothing about the run changes.
 */
function watchRun(runId: string, epoch: number, external?: AbortSignal, job?: PassJob, stopping?: AbortSignal) {
  const controller = new AbortController();
  const state = { stop: false, yielded: false, handover: false, status: "running" as string };
  const halt = (abort: boolean) => {
    state.stop = true;
    if (abort) controller.abort();
  };
  const onExternal = () => halt(true);
  const unlisten = listenToRun(runId, (notice) => {
    state.status = notice.status;
    // Cancel and a newer engine abort the item in flight; pause lets it finish.
    if (notice.epoch !== epoch || notice.status === "cancelled") halt(true);
    else if (notice.status !== "running") halt(false);
  });
  external?.addEventListener("abort", onExternal, { once: true });
  if (external?.aborted) halt(true);
  // The worker is stopping: the items in flight finish (within SHUTDOWN_TIMEOUT_MS), none starts,
  // and the run goes back to the queue for another worker (or this one after its restart). An
  // item's calls are so made once; only one still in flight at the timeout is aborted and sent again.
  const onStopping = () => {
    log.info({ run_id: runId }, "run pass stopping: the items in flight finish, none starts");
    state.yielded = state.handover = true;
    halt(false);
  };
  stopping?.addEventListener("abort", onStopping, { once: true });
  if (stopping?.aborted) onStopping();
  let busy = false;
  const timer = setInterval(() => {
    if (busy || state.stop) return;
    busy = true;
    void (async () => {
      try {
        const db = await prisma();
        const row = await db.run.findUnique({ where: { id: runId }, select: { status: true, epoch: true } });
        if (!row) return halt(true);
        state.status = row.status;
        // Cancel and a newer engine abort the item in flight; pause lets it finish.
        if (row.epoch !== epoch || row.status === "cancelled") halt(true);
        else if (row.status !== "running") halt(false);
      } catch (e) {
        log.warn({ run_id: runId, err: (e as Error).message }, "run watch failed");
      } finally {
        busy = false;
      }
    })();
  }, env().RUN_WATCH_INTERVAL_MS);
  timer.unref?.();
  let sharing = false;
  const share = job
    ? setInterval(() => {
        if (sharing || state.stop) return;
        sharing = true;
        queueShare({
          name: "run",
          organizationId: job.organizationId,
          jobId: job.id,
          waitedSeconds: SHARE_WAIT_SECONDS,
        })
          .then(({ othersWaiting, ahead }) => {
            if (othersWaiting && ahead >= env().ORG_RUN_CONCURRENCY && !state.stop) {
              state.yielded = true;
              halt(false);
            }
          })
          .catch((e: unknown) => log.warn({ run_id: runId, err: (e as Error).message }, "fair share check failed"))
          .finally(() => (sharing = false));
      }, SHARE_CHECK_MS)
    : undefined;
  share?.unref?.();
  return {
    state,
    signal: controller.signal,
    close: () => {
      clearInterval(timer);
      clearInterval(share);
      unlisten();
      external?.removeEventListener("abort", onExternal);
      stopping?.removeEventListener("abort", onStopping);
    },
  };
}

export async function runEngine(opts: {
  runId: string;
  epoch: number;
  baseUrl?: string;
  signal?: AbortSignal;
  /** The worker is stopping: hand the run over at the next item boundary. */
  stopping?: AbortSignal;
  /** The job running this pass (absent in tests that call the engine directly: no fair share). */
  job?: PassJob;
  /** Where expressions are evaluated: the process's evaluator pool unless given (the benchmark's baseline). */
  evaluator?: Evaluator;
}) {
  const db = await prisma();
  let run = await db.run.findUnique({ where: { id: opts.runId } });
  if (!run || run.epoch !== opts.epoch) return;
  if (run.status === "pending") {
    const startedAt = run.startedAt ?? utcNow();
    const started = await moveRun({
      runId: run.id,
      move: "start",
      actor: SYSTEM,
      epoch: opts.epoch,
      decide: () => ({ to: "running", data: { startedAt } }),
    });
    if (isRefused(started)) return;
    run = (await db.run.findUnique({ where: { id: opts.runId } }))!;
  }
  if (run.status !== "running") return;

  const watch = watchRun(run.id, opts.epoch, opts.signal, opts.job, opts.stopping);
  let pass: Pass | undefined;
  try {
    const evaluator = opts.evaluator ?? expressionEvaluator();
    pass = new Pass(run, opts.epoch, opts.baseUrl ?? publicBaseUrl(), watch, evaluator);
    await pass.execute();
  } catch (e) {
    if (!(e instanceof StaleEpoch)) throw e;
  } finally {
    watch.close();
  }
  if (watch.state.yielded && !pass?.finished) {
    // Behind the runs that were waiting: the run stays `running`, its pending items wait for this job.
    log.info(
      { run_id: run.id, organization_id: run.organizationId },
      watch.state.handover
        ? "run pass hands the run over: the worker is stopping"
        : "run pass yields to other organizations' runs",
    );
    await enqueue("run", {
      runId: run.id,
      epoch: opts.epoch,
      baseUrl: opts.baseUrl,
      organizationId: run.organizationId,
    });
  }
}

class Pass {
  /** The pass ended the run (its last items done). */
  finished = false;
  private readonly definition: WorkflowDefinition;
  private buffer: Finished[] = [];
  private bufferedSince = 0;
  private bufferedChars = 0;
  private ready: boolean;
  /** Whether an item at step i has http/llm/wait steps ahead (i from 0 to steps.length). */
  private readonly effectsFrom: boolean[];

  constructor(
    private readonly run: Run,
    private readonly epoch: number,
    private readonly baseUrl: string,
    private readonly watch: ReturnType<typeof watchRun>,
    private readonly evaluator: Evaluator,
  ) {
    this.definition = StoredWorkflowDefinition.parse(run.definition);
    const steps = this.definition.steps;
    this.effectsFrom = Array.from({ length: steps.length + 1 }, (_, i) => hasSideEffects(steps, i));
    this.ready = run.itemsReady;
  }

  private get inputs() {
    return this.run.inputs as Record<string, unknown>;
  }

  private signed?: SignedInputs & { at: number };
  private signing?: Promise<SignedInputs>;

  /**
   * The inputs with file references resolved to signed links (and as JSON text, for the evaluator),
   * signed again once they are RESIGN_AFTER_MS old: an item of a long pass never gets links signed
   * at the pass's start.
   */
  private signedInputs(): SignedInputs | Promise<SignedInputs> {
    if (this.signed && Date.now() - this.signed.at < RESIGN_AFTER_MS) return this.signed;
    const at = Date.now();
    this.signing ??= resolveFileRefs(this.inputs, {
      organizationId: this.run.organizationId,
      agentId: this.run.agentId,
      baseUrl: this.baseUrl,
    })
      .catch(() => this.signed?.inputs ?? this.inputs)
      .then((inputs) => {
        // A key per signing: the evaluator processes keep the text under it (EvalRequest.inputs).
        this.signed = { inputs, evalInputs: { key: randomUUID(), json: JSON.stringify(inputs) }, at };
        this.signing = undefined;
        return this.signed;
      });
    return this.signing;
  }

  async execute() {
    if (!this.ready) {
      try {
        if (!(await this.materialise())) return;
        this.ready = true;
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        await this.failRun(e.message);
        return;
      }
    }
    const db = await prisma();
    const agent = await db.agent.findUnique({ where: { id: this.run.agentId } });
    // The runtime of the run's own version (llm steps), as its definition is: a publish since changes neither.
    const runtime = RuntimeConfig.parse(
      (agent && (await agentAt(agent, this.run.agentVersion)).runtime) ?? { type: "echo" },
    );
    // Fresh signed URLs for file inputs, for steps that hand them on (http, expressions).
    const ctx: StepContext = {
      runId: this.run.id,
      ...(await this.signedInputs()),
      runtime,
      signal: this.watch.signal,
      evaluator: this.evaluator,
      secrets: secretLookup(this.run.organizationId),
    };
    const steps = this.definition.steps;

    for (;;) {
      await yieldToEventLoop();
      // A pause or cancel stops here; a pass that yields or hands the run over ends the run first
      // if nothing is left to do (its last items were the ones in flight).
      if (this.watch.state.stop && !this.watch.state.yielded) return;
      const page = await pendingPage(this.run.id);
      if (!page.length) {
        await this.finish();
        this.finished = true;
        return;
      }
      if (this.watch.state.stop) return;
      const fatal = await this.processPage(page, steps, ctx);
      await this.flush();
      if (fatal) {
        await this.failRun(`Item ${fatal.index}: ${fatal.error}`);
        return;
      }
    }
  }

  /**
   * Runs a page of pending items in index order, launching none after a stop, an abort or a fatal
   * failure, and waits for those in flight. An item with http/llm/wait steps ahead runs on its own,
   * up to the definition's `concurrency` at a time (one by default). The others are pure: one
   * evaluator request takes them together (from the current one to the end of the page; it answers
   * for as many as its budget allows), and each result is recorded when its item's turn comes, so
   * a pause or cancel still takes effect at an item boundary. Returns the fatal failure of the
   * lowest index, if any.
   */
  private async processPage(
    page: PendingItem[],
    steps: WorkflowDefinition["steps"],
    ctx: StepContext,
  ): Promise<{ index: number; error: string } | undefined> {
    const limit = this.definition.concurrency ?? 1;
    const inFlight = new Set<Promise<void>>();
    let halted = false;
    let fatal: { index: number; error: string } | undefined;
    const record = async (item: PendingItem, outcome: Traced | null, sideEffects: boolean) => {
      if (!outcome) {
        halted = true; // aborted mid-item: it stays pending
        return;
      }
      this.push({ id: item.id, outcome });
      if (outcome.status === "failed" && outcome.fatal) {
        halted = true;
        if (!fatal || item.index < fatal.index) fatal = { index: item.index, error: outcome.error };
        return;
      }
      if (
        sideEffects ||
        this.buffer.length >= FLUSH_ITEMS ||
        this.bufferedChars >= FLUSH_CHARS ||
        Date.now() - this.bufferedSince >= FLUSH_MS
      )
        await this.flush();
    };
    const one = async (item: PendingItem) => {
      const { inputs, evalInputs } = await this.signedInputs();
      const outcome = await runItem({
        steps,
        from: item.stepIndex,
        json: item.json,
        itemIndex: item.index,
        ctx: { ...ctx, inputs, evalInputs },
      });
      await record(item, outcome, true);
    };
    /** Each pure item's result, and when the evaluation that gave it started (its step timeline). */
    const evaluated = new Map<string, { result: ItemResult; at: number }>();
    const pure = async (n: number) => {
      const item = page[n]!;
      if (!evaluated.has(item.id)) {
        const batch = page.slice(n).filter((i) => !this.effectsFrom[i.stepIndex]);
        const { evalInputs } = await this.signedInputs();
        const items = batch.map((i) => ({ json: i.json, from: i.stepIndex }));
        const at = Date.now();
        const results = await this.evaluator.evaluate({ steps: planOf(steps), inputs: evalInputs, items });
        results.forEach((result, j) => evaluated.set(batch[j]!.id, { result, at }));
      }
      return evaluated.get(item.id)!;
    };
    let failure: unknown;
    for (const [n, item] of page.entries()) {
      if (this.watch.state.stop || halted || failure) break;
      if (!this.effectsFrom[item.stepIndex]) {
        try {
          const { result, at } = await pure(n);
          if (this.watch.state.stop || halted) break; // came while it was evaluated: the item stays pending
          if (result.k === "call") throw new Error(`a call for item ${item.index}, whose steps have none`);
          const where = { runId: ctx.runId, itemIndex: item.index };
          await record(item, tracedOutcome(steps, result, { from: item.stepIndex, at }, where), false);
        } catch (e) {
          failure ??= e;
        }
        continue;
      }
      const task: Promise<void> = one(item).then(
        () => void inFlight.delete(task),
        (e: unknown) => {
          inFlight.delete(task);
          failure ??= e;
        },
      );
      inFlight.add(task);
      if (inFlight.size >= limit) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    if (failure) throw failure;
    return fatal;
  }

  private push(f: Finished) {
    if (!this.buffer.length) this.bufferedSince = Date.now();
    this.buffer.push(f);
    this.bufferedChars += f.outcome.data.length;
  }

  /** Writes the buffered outcomes and the counters they move, in one transaction. */
  private async flush() {
    if (!this.buffer.length) return;
    const batch = this.buffer;
    this.buffer = [];
    this.bufferedChars = 0;
    // The items' JSON text goes in as it is (never parsed on this thread), beside their metadata.
    const rows = batch.map(({ id, outcome: o }) => {
      const meta = JSON.stringify({
        id,
        status: o.status,
        error: "error" in o ? o.error : null,
        exception: "exception" in o ? o.exception : false,
        fatal: o.status === "failed" ? o.fatal : false,
        step_id: "stepId" in o ? o.stepId : null,
        step_index: o.stepIndex,
        steps: o.trace,
      });
      return `${meta.slice(0, -1)},"result":${o.data}}`;
    });
    const db = await prisma();
    await db.$transaction(async (tx) => {
      const applied = await tx.$queryRaw<{ status: string; exception: boolean }[]>(P.sql`
        UPDATE run_items AS ri
        SET status = v.status, result = v.result, error = v.error, exception = v.exception,
            fatal = v.fatal, step_id = v.step_id, step_index = v.step_index,
            steps = COALESCE(ri.steps, '[]'::jsonb) || v.steps,
            updated_at = (clock_timestamp() AT TIME ZONE 'UTC')
        FROM jsonb_to_recordset(${`[${rows.join(",")}]`}::jsonb) AS v(
          id text, status text, result jsonb, error text, exception boolean, fatal boolean,
          step_id text, step_index int, steps jsonb)
        WHERE ri.id = v.id AND ri.run_id = ${this.run.id} AND ri.status = 'pending'
        RETURNING v.status AS status, v.exception AS exception`);
      const n = (s: string) => applied.filter((a) => a.status === s).length;
      // Raw like the statement above (the run's counters move in the database, never read-modify-write);
      // updated_at as Prisma's @updatedAt would set it: the stuck-run sweeper reads it.
      const counted = await tx.$executeRaw(P.sql`
        UPDATE runs SET total_processed = total_processed + ${applied.length},
          successful = successful + ${n("completed")}, skipped = skipped + ${n("skipped")},
          failed = failed + ${n("failed")}, exceptions = exceptions + ${applied.filter((a) => a.exception).length},
          items_completed = items_completed + ${n("completed") + n("skipped")},
          items_failed = items_failed + ${n("failed")}, items_needs_review = items_needs_review + ${n("needs_review")},
          updated_at = (clock_timestamp() AT TIME ZONE 'UTC')
        WHERE id = ${this.run.id} AND epoch = ${this.epoch}`);
      if (counted !== 1) throw new StaleEpoch();
    });
    await yieldToEventLoop();
  }

  /** Streams the input into RunItem rows. Returns false when the run was paused/cancelled meanwhile. */
  private async materialise(): Promise<boolean> {
    const db = await prisma();
    const already = this.run.itemsTotal;
    let index = 0;
    let batch: { id: string; index: number; data: unknown }[] = [];
    const write = async () => {
      if (!batch.length) return;
      const rows = batch;
      batch = [];
      await db.$transaction(async (tx) => {
        // One statement with the batch as one JSON parameter: createMany's per-row work cost more
        // than the items' steps (bench/profile.ts workflow). ON CONFLICT: rows written before a restart.
        const items = JSON.stringify(rows.map((r) => ({ id: r.id, index: r.index, data: r.data })));
        await tx.$executeRaw(P.sql`
          INSERT INTO run_items (id, run_id, index, data, created_at, updated_at)
          SELECT v.id, ${this.run.id}, v.index, COALESCE(v.data, 'null'::jsonb),
                 (clock_timestamp() AT TIME ZONE 'UTC'), (clock_timestamp() AT TIME ZONE 'UTC')
          FROM jsonb_to_recordset(${items}::jsonb) AS v(id text, index int, data jsonb)
          ON CONFLICT DO NOTHING`);
        const r = await tx.run.updateMany({
          where: { id: this.run.id, epoch: this.epoch },
          data: { itemsTotal: rows[rows.length - 1]!.index + 1 },
        });
        if (r.count !== 1) throw new StaleEpoch();
      });
      await yieldToEventLoop();
    };
    for await (const value of readItems({
      definition: this.definition,
      inputs: this.inputs,
      organizationId: this.run.organizationId,
      agentId: this.run.agentId,
    })) {
      if (index++ < already) continue; // written before a restart
      batch.push({ id: newId("item"), index: index - 1, data: value ?? null });
      if (batch.length >= MATERIALISE_BATCH) {
        await write();
        if (this.watch.state.stop) return false;
      }
    }
    await write();
    const r = await db.run.updateMany({
      where: { id: this.run.id, epoch: this.epoch },
      data: { itemsReady: true, itemsTotal: index },
    });
    if (r.count !== 1) throw new StaleEpoch();
    return true;
  }

  private async finish() {
    await this.output();
    const done = await moveRun({
      runId: this.run.id,
      move: "finish",
      actor: SYSTEM,
      epoch: this.epoch,
      decide: (r) => {
        // An approval resolved after our last page put an item back to pending: not done yet.
        if (!r.items_ready || r.items_completed + r.items_failed + r.items_needs_review !== r.items_total) return null;
        return r.items_needs_review > 0 ? { to: "needs_review" } : { to: "completed", data: { completedAt: utcNow() } };
      },
    });
    if (isRefused(done) && done.refused === "running" && done.run?.epoch === this.epoch) {
      // Items came back (approved while we finished): go round again.
      return this.execute();
    }
  }

  private async failRun(error: string) {
    await this.output();
    await moveRun({
      runId: this.run.id,
      move: "fail",
      actor: SYSTEM,
      epoch: this.epoch,
      to: "failed",
      data: { error, completedAt: utcNow() },
    });
  }

  private async output() {
    if (this.definition.output && this.ready) await writeOutput({ runId: this.run.id, output: this.definition.output });
  }
}
