// The deployment at scale, CI size (bench/scale.ts; `npm run demo:scale` is the full size): two app
// processes (RUN_WORKER=false) and two standalone workers on one PostgreSQL database, with S3 storage
// through s3rver, behave as one service under load: every trigger answered exactly once, a key
// revoked on one app refused on the other, a workflow run finished exactly by the other worker when
// the one running it is sent SIGTERM, a file uploaded on one app downloaded from the other, a
// completion callback delivered once. PostgreSQL only: the embedded database allows one process.
import { describe, expect, it } from "vitest";
import { runScale } from "../../bench/scale";

describe("deployment at scale", () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "two apps and two workers on PostgreSQL behave as one under load (skipped on the embedded database: it allows one process)",
    { timeout: 240_000 },
    async () => {
      const lines: string[] = [];
      const result = await runScale({
        adminUrl: process.env.TEST_DATABASE_URL!,
        triggers: 100,
        connections: 4,
        runItems: 120,
        runConcurrency: 4,
        // The rest of the run (at least 108 items x 200 ms / 4) lasts far longer than the 1 s shutdown bound.
        itemDelayMs: 200,
        s3: "auto",
        // A bound for polling, not a timing test: on a loaded CI machine the probe itself is slow.
        revocationSlackMs: 10_000,
        callbackWaitMs: 30_000,
        log: (line) => lines.push(line),
      });
      const byName = Object.fromEntries(result.checks.map((c) => [c.name, c]));
      for (const name of [
        "replies answered exactly once",
        "revocation A -> B",
        "run survives SIGTERM of its worker",
        "upload A -> download B",
      ]) {
        expect(byName[name]?.ok, `${name}: ${byName[name]?.detail}\n${lines.join("\n")}`).toBe(true);
      }
      // Callbacks: checked wherever the service takes a callback_url; never a failure.
      expect(
        result.checks.filter((c) => c.ok === false),
        lines.join("\n"),
      ).toEqual([]);
      expect(result.load.map((l) => l.figure.statuses)).toEqual(["202:100", "202:100"]);
    },
  );
});
