// A large CSV run end to end (upload, trigger, engine, output file), with the server's memory
// reported: 100,000 rows under `npm run test:reliability`, 20,000 in CI (./scale.ts). Own server, so
// that its processes' RSS can be read from /proc.
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { ownServer, type OwnServer } from "../api/server";
import { scale } from "./scale";

/** A multiple of 1,000 (every thousandth row fails, every tenth is skipped). */
const ROWS = scale({ full: 100_000, ci: 20_000 });
let own: OwnServer | undefined;
afterAll(() => own?.dispose());

/** RSS of every process in the server's process group (next leaves a child), in MB. */
function groupRssMb(leader: number): number {
  let kb = 0;
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== leader) continue;
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      /* exited */
    }
  }
  return kb / 1024;
}

describe(`a ${ROWS.toLocaleString("en-US")}-row CSV run`, () => {
  it("completes with exact counts and an output row per item, in bounded memory", { timeout: 600_000 }, async () => {
    own = await ownServer("wf-large", { LOG_LEVEL: "warn" });
    const o = own;
    const req = async (auth: string, method: string, p: string, body?: unknown) =>
      (await o.call(method, p, { auth, body })).body;
    /** `call` sends JSON only: the CSV goes up as multipart form data. */
    const upload = async (auth: string, p: string, form: FormData) => {
      const res = await fetch(`${o.server.baseUrl}${p}`, {
        method: "POST",
        headers: { authorization: `Bearer ${auth}` },
        body: form,
      });
      return (await res.json()) as any;
    };
    const key = await o.mintKey();
    const agent = await o.createAgent({
      name: "orders",
      kind: "workflow",
      runtime: { type: "echo" },
      workflow: {
        inputs: { rows: { type: "file", required: true } },
        items: { from: "rows", format: "csv" },
        steps: [
          {
            id: "total",
            type: "transform",
            expression: "$merge([item, {'total': $number(item.qty) * $number(item.price)}])",
          },
          { id: "odd", type: "fail", when: "$number(item.id) % 1000 = 999", message: "every thousandth row" },
          { id: "none", type: "skip", when: "$number(item.qty) = 0" },
        ],
        output: { filename: "orders.csv", format: "csv" },
      },
    });
    const lines = ["id,qty,price"];
    for (let i = 0; i < ROWS; i++) lines.push(`${i},${i % 10},${(i % 7) + 0.25}`);
    const form = new FormData();
    form.append("file", new Blob([lines.join("\n") + "\n"], { type: "text/csv" }), "orders.csv");
    const file = await upload(key, `/api/agents/${agent}/upload`, form);
    expect(file.file_id).toMatch(/^fi_/);

    const before = groupRssMb(o.server.proc.pid!);
    let peak = before;
    const started = Date.now();
    const { run_id } = await req(key, "POST", `/api/agents/webhook/${agent}`, { rows: { file_id: file.file_id } });
    let run: any;
    let slowestPoll = 0;
    for (;;) {
      const t0 = Date.now();
      try {
        run = await req(key, "GET", `/api/agents/${agent}/runs/${run_id}`);
      } catch (e) {
        // A reused keep-alive socket can be closed by the server as the request goes out
        // (ECONNRESET): poll again on a new one.
        console.log(
          `poll failed after ${Date.now() - t0} ms (slowest so far ${slowestPoll} ms): ${String((e as Error).cause ?? e)}`,
        );
        continue;
      }
      slowestPoll = Math.max(slowestPoll, Date.now() - t0);
      peak = Math.max(peak, groupRssMb(o.server.proc.pid!));
      if (!["pending", "running"].includes(run.status)) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `${ROWS}-row CSV run: ${run.status} in ${seconds.toFixed(1)} s (${(ROWS / seconds).toFixed(0)} items/s); ` +
        `slowest poll ${slowestPoll} ms; server RSS ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB (+${(peak - before).toFixed(0)} MB)`,
    );
    expect(run.status).toBe("completed");
    const failed = ROWS / 1000;
    const skipped = ROWS / 10; // qty 0: ids ending in 0 (the failed ones end in 999)
    expect(run.item_counts).toEqual({ completed: ROWS - failed, failed, needs_review: 0, total: ROWS });
    expect(run.summary).toEqual({
      total_processed: ROWS,
      successful: ROWS - failed - skipped,
      failed,
      exceptions: 0,
      skipped,
    });
    const csv = await (await fetch(run.output_files[0].url)).text();
    expect(csv.trim().split("\n")).toHaveLength(ROWS + 1);
    // Bounded: far below what holding 100k items (and their results) at once would take on top of
    // the database's own caches; see docs/workflows.md for the figures.
    expect(peak - before).toBeLessThan(900);
  });
});
