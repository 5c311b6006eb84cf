import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "../env";
import { newId } from "../ids";
import { openTestDatabase } from "../../test-support/db";
import { readRun } from "./read";
import { getRun, recordOf } from "./service";

let db: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  process.env.SIGNING_SECRET ??= "unit-test-signing-secret";
  resetEnvCache();
  db = await openTestDatabase();
});
afterAll(async () => {
  await db.dispose();
});

describe("the polling read of a run (raw SQL)", () => {
  it("answers exactly the record the Prisma reads give, output files and audit trail included", async () => {
    const orgId = newId("org");
    const projectId = newId("proj");
    await db.prisma.organization.create({ data: { id: orgId, name: `read-${orgId}` } });
    await db.prisma.project.create({ data: { id: projectId, organizationId: orgId, name: "default" } });
    const agent = await db.prisma.agent.create({
      data: {
        id: newId("agt"),
        organizationId: orgId,
        projectId,
        name: "w",
        kind: "workflow",
        runtime: { type: "echo" },
      },
    });
    const run = await db.prisma.run.create({
      data: {
        id: newId("run"),
        organizationId: orgId,
        projectId,
        agentId: agent.id,
        status: "completed",
        inputs: { rows: [1, 2, 3] },
        definition: {},
        error: null,
        totalProcessed: 3,
        successful: 2,
        failed: 1,
        itemsCompleted: 2,
        itemsFailed: 1,
        itemsTotal: 3,
        startedAt: new Date("2026-03-04T05:06:07.123Z"),
        completedAt: new Date("2026-03-04T05:06:09.456Z"),
      },
    });
    for (const [i, name] of ["results.jsonl", "errors.csv"].entries()) {
      await db.prisma.outputFile.create({
        data: {
          id: newId("out"),
          runId: run.id,
          filename: name,
          contentType: i ? "text/csv" : "application/x-ndjson",
          sizeBytes: BigInt(5_000_000_000 + i), // past 2^32: bigint all the way
          storageKey: `${orgId}/${agent.id}/out-${i}`,
          createdAt: new Date(Date.UTC(2026, 2, 4, 5, 6, 9, 500 + i)),
        },
      });
    }
    const moves = [
      ["pending", "running", 1],
      ["running", "completed", 2],
    ] as const;
    for (const [from, to, seq] of moves) {
      await db.prisma.auditEvent.create({
        data: {
          id: newId("evt"),
          organizationId: orgId,
          actorType: "system",
          actorLabel: seq === 1 ? "worker" : null,
          action: `run.${to === "running" ? "start" : "complete"}`,
          targetType: "run",
          targetId: run.id,
          data: { from, to, seq, triggered_by: null },
          createdAt: new Date(Date.UTC(2026, 2, 4, 5, 6, 7, 100 * seq)),
        },
      });
    }
    const baseUrl = "http://service.test";
    // One clock for both reads: the signed links carry an expiry computed from it.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-03-05T00:00:00.000Z") });
    let fast: Awaited<ReturnType<typeof getRun>>;
    try {
      fast = await getRun({ agent, runId: run.id, baseUrl });
      expect(fast).toEqual(await recordOf(run.id, baseUrl));
    } finally {
      vi.useRealTimers();
    }
    expect(fast.output_files.map((f) => f.size_bytes)).toEqual([5_000_000_000, 5_000_000_001]);
    expect(fast.events.map((e) => [e.from, e.to, e.at])).toEqual([
      ["pending", "running", "2026-03-04T05:06:07.100Z"],
      ["running", "completed", "2026-03-04T05:06:07.200Z"],
    ]);
    // Another agent of the organization, or an unknown id: run_not_found.
    const other = { ...agent, id: newId("agt") };
    await expect(getRun({ agent: other, runId: run.id, baseUrl })).rejects.toMatchObject({ code: "run_not_found" });
    await expect(getRun({ agent, runId: "run_missing", baseUrl })).rejects.toMatchObject({ code: "run_not_found" });

    // Polls that arrive together are read by one statement (lib/db/batch.ts): each gets its own answer.
    const ref = { runId: run.id, agentId: agent.id, organizationId: orgId };
    const together = await Promise.all([
      readRun(ref),
      readRun({ ...ref, agentId: other.id }),
      readRun({ ...ref, runId: "run_missing" }),
      readRun(ref),
      readRun({ ...ref, organizationId: "org_other" }),
    ]);
    const alone = await readRun(ref);
    expect(alone?.run.id).toBe(run.id);
    expect(together).toEqual([alone, undefined, undefined, alone, undefined]);
  });
});
