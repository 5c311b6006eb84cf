// The job worker: in the server process in the embedded mode, or `npm run worker` processes.
import { env } from "../env";
import { recoverReplies } from "../conversations/recovery";
import { leaseMs } from "../conversations/replies";
import { deleteExpiredUploads } from "../files/resumable";
import { log } from "../log";
import { HANDLERS } from "./handlers";
import { queue, stopQueue, work } from "./index";
import { QUEUE_NAMES, type QueueName } from "./jobs";

async function start<N extends QueueName>(name: N) {
  const entry = HANDLERS[name];
  return work(name, await entry.handler(), entry.concurrency);
}

/** Runs `task` now and every `ms`, logging failures; returns a function that stops it. */
function every(ms: number, what: string, task: () => Promise<unknown>): () => void {
  const run = () => task().catch((err) => log.warn({ err: { message: (err as Error).message } }, `${what} failed`));
  void run();
  const timer = setInterval(run, ms);
  timer.unref?.();
  return () => clearInterval(timer);
}

/**
 * Periodic upkeep besides the queues: replies whose producer died are taken over (checked twice a
 * lease); runs whose job's last attempt died with its process end `failed` (checked twice a
 * heartbeat: the job's heartbeat lapses a heartbeat after the death, so the run ends within about two);
 * expired unfinished uploads lose their bytes and records.
 */
function startUpkeep(): () => void {
  const stops = [
    every(Math.max(1_000, leaseMs() / 2), "reply recovery", () => recoverReplies()),
    every((env().QUEUE_HEARTBEAT_SECONDS * 1000) / 2, "orphaned run sweep", async () =>
      (await import("../workflow/job")).failOrphanedRuns(),
    ),
    every(env().UPLOAD_CLEANUP_INTERVAL_MS, "upload sweep", () => deleteExpiredUploads()),
  ];
  return () => stops.forEach((stop) => stop());
}

/**
 * Stops the worker: it takes no more jobs (`pause` alone does that much), running jobs get up to
 * `timeoutMs` to finish (pg-boss then fails them, to be retried), and the queue is stopped.
 */
export interface WorkerStop {
  (timeoutMs?: number): Promise<void>;
  pause(): Promise<void>;
}

export async function startWorker(): Promise<WorkerStop> {
  await queue();
  const stops: Array<() => Promise<void>> = [];
  for (const name of QUEUE_NAMES) stops.push(await start(name));
  // Completion callbacks: a poller of the outbox table (lib/callbacks/deliver.ts), not a queue.
  stops.push((await import("../callbacks/deliver")).startCallbackDeliverer());
  const stopUpkeep = startUpkeep();
  log.info({ queues: QUEUE_NAMES }, "worker ready");
  let paused: Promise<void> | undefined;
  const pause = () =>
    (paused ??= (async () => {
      stopUpkeep();
      for (const stop of stops) await stop();
    })());
  return Object.assign(
    async (timeoutMs?: number) => {
      await pause();
      await stopQueue(timeoutMs);
    },
    { pause },
  );
}
