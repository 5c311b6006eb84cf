// The job worker: in the server process in the embedded mode, or `npm run worker` processes.
import { log } from "../log";
import { HANDLERS } from "./handlers";
import { queue, stopQueue, work } from "./index";
import { QUEUE_NAMES, type QueueName } from "./jobs";

async function start<N extends QueueName>(name: N) {
  const entry = HANDLERS[name];
  return work(name, await entry.handler(), entry.concurrency);
}

export async function startWorker(): Promise<() => Promise<void>> {
  await queue();
  const stops: Array<() => Promise<void>> = [];
  for (const name of QUEUE_NAMES) stops.push(await start(name));
  log.info({ queues: QUEUE_NAMES }, "worker ready");
  return async () => {
    for (const stop of stops) await stop();
    await stopQueue();
  };
}
