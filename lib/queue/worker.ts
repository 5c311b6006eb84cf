// The job worker: in the server process in the embedded mode, or `npm run worker` processes.
import { log } from "../log";
import { HANDLERS } from "./handlers";
import { queue, stopQueue, work, type QueueName } from "./index";

export async function startWorker(): Promise<() => Promise<void>> {
  await queue();
  const stops: Array<() => Promise<void>> = [];
  for (const [name, entry] of Object.entries(HANDLERS)) {
    if (!entry) continue;
    stops.push(await work(name as QueueName, await entry.handler(), entry.concurrency));
  }
  log.info({ queues: Object.keys(HANDLERS) }, "worker ready");
  return async () => {
    for (const stop of stops) await stop();
    await stopQueue();
  };
}
