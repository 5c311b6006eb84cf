// Load generation (autocannon, in the bench process) and what is watched meanwhile: the resident
// memory and CPU time of a server's process group, read from /proc.
import { readdirSync, readFileSync } from "node:fs";
import autocannon, { type Result } from "autocannon";

export interface Figure {
  /** Mean responses per second. */
  rps: number;
  /** Latency in ms. */
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  /** Responses per status code, e.g. "202:5120 503:3". */
  statuses: string;
  /** Peak RSS (MB) of the watched process group during the load. */
  peakRssMb?: number;
}

export interface LoadOptions {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  /** Seconds. */
  duration: number;
  /** Seconds before a request counts as a timeout. */
  timeout?: number;
  /** Process group whose RSS is sampled during the load. */
  watch?: number;
}

/** Processes of a process group (the group of a detached child is its pid). */
function groupPids(pgid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) === pgid) pids.push(Number(entry));
    } catch {
      /* gone */
    }
  }
  return pids;
}

/** Resident memory of a process group in MB (VmRSS of each process, summed). */
export function groupRssMb(pgid: number): number {
  let kb = 0;
  for (const pid of groupPids(pgid)) {
    try {
      kb += Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      /* gone */
    }
  }
  return kb / 1024;
}

const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) used so far by a process group. */
export function groupCpuSeconds(pgid: number): number {
  let ticks = 0;
  for (const pid of groupPids(pgid)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      /* gone */
    }
  }
  return ticks / TICKS_PER_SECOND;
}

/**
 * Waits until a process group is idle again (under 10% of a core for two seconds in a row), so
 * that work left over from one load (queued replies) does not run during the next. Returns the
 * seconds waited, or undefined when it was still busy after `maxSeconds`.
 */
export async function settle(pgid: number, maxSeconds = 180): Promise<number | undefined> {
  const started = performance.now();
  let quiet = 0;
  let cpu = groupCpuSeconds(pgid);
  while (performance.now() - started < maxSeconds * 1000) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = groupCpuSeconds(pgid);
    quiet = now - cpu < 0.1 ? quiet + 1 : 0;
    cpu = now;
    if (quiet >= 2) return Math.max(0, (performance.now() - started) / 1000 - 2);
  }
  return undefined;
}

export async function load(opts: LoadOptions): Promise<Figure> {
  let peak = 0;
  const sample = () => {
    if (opts.watch) peak = Math.max(peak, groupRssMb(opts.watch));
  };
  sample();
  const timer = setInterval(sample, 250);
  let r: Result;
  try {
    r = await autocannon({
      url: opts.url,
      method: opts.method ?? "GET",
      headers: opts.headers,
      body: opts.body,
      connections: opts.connections,
      duration: opts.duration,
      timeout: opts.timeout ?? 10,
    });
  } finally {
    clearInterval(timer);
    sample();
  }
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statuses: Object.entries(r.statusCodeStats)
      .map(([code, s]) => `${code}:${s.count}`)
      .join(" "),
    peakRssMb: opts.watch ? peak : undefined,
  };
}
