// The worker: the queues' handlers and the periodic tasks, in the server process in the embedded
// mode (lib/boot.ts) or in `npm run worker` processes (scripts/worker.ts). It sits above the
// domains: lib/queue is the adapter that fetches and settles jobs and knows no domain.
import { log } from "../log";
import { queue, stopQueue, work } from "../queue";
import { QUEUE_NAMES, type QueueName } from "../queue/jobs";
import { HANDLERS } from "./handlers";
import { startPollers, startSweeps } from "./periodic";

async function start<N extends QueueName>(name: N) {
  const entry = HANDLERS[name];
  return work(name, await entry.handler(), entry.concurrency);
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
  stops.push(await startPollers());
  const stopSweeps = startSweeps();
  log.info({ queues: QUEUE_NAMES }, "worker ready");
  let paused: Promise<void> | undefined;
  const pause = () =>
    (paused ??= (async () => {
      stopSweeps();
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
