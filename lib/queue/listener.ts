// Wake-ups across processes on PostgreSQL: `enqueue` announces each job with pg_notify in the
// enqueuing statement's transaction (so the notification goes out when it commits, and never for a
// rollback), and every process with workers listens on a connection of its own and wakes one of its
// workers for the job's queue. Workers still poll (slowly while the listener is up), so a lost
// notification delays a job, never strands it; after each (re)connection every worker fetches once.
import pg from "pg";
import { log } from "../log";

export const JOB_CHANNEL = "agent_webhook_service_jobs";

/** Announces a job of the queue `$1`; answers one row, so that it runs through any adapter. */
export const NOTIFY_SQL = `SELECT 1 AS ok FROM (SELECT pg_notify('${JOB_CHANNEL}', $1)) n`;

const RECONNECT_MS = 1_000;

export interface Listener {
  /** True while notifications arrive: the workers may poll slowly. */
  readonly listening: boolean;
  close(): Promise<void>;
}

export function listenForJobs(
  connectionString: string,
  onJob: (queue: string) => void,
  onConnected: () => void,
): Listener {
  let closed = false;
  let listening = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const drop = (c: pg.Client, err?: Error) => {
    if (client !== c) return;
    client = undefined;
    listening = false;
    void c.end().catch(() => {});
    if (closed) return;
    if (err) log.warn({ err: { message: err.message } }, "queue listener lost its connection; workers poll meanwhile");
    retry = setTimeout(connect, RECONNECT_MS);
    retry.unref?.();
  };

  const connect = async () => {
    if (closed) return;
    const c = new pg.Client({ connectionString, application_name: "queue-listener" });
    client = c;
    c.on("notification", (msg) => {
      if (msg.channel === JOB_CHANNEL && msg.payload) onJob(msg.payload);
    });
    c.on("error", (err) => drop(c, err));
    c.on("end", () => drop(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${JOB_CHANNEL}`);
    } catch (err) {
      drop(c, err as Error);
      return;
    }
    if (client !== c) return;
    listening = true;
    onConnected();
  };

  void connect();
  return {
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      listening = false;
      await c?.end().catch(() => {});
    },
  };
}
