// The overview's counts come from counters kept by triggers (runs by status, sessions per hour):
// after every kind of change they must equal what counting the rows gives.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../ids";
import { RUN_STATUSES } from "../runs/state";
import { openTestDatabase } from "../../test-support/db";
import { overview } from "./overview";

let db: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db.dispose();
});

async function organizationWithAgent() {
  const organizationId = newId("org");
  const projectId = newId("proj");
  const agentId = newId("agt");
  await db.prisma.organization.create({ data: { id: organizationId, name: `overview-${organizationId}` } });
  await db.prisma.project.create({ data: { id: projectId, organizationId, name: "Default" } });
  await db.prisma.agent.create({
    data: { id: agentId, organizationId, projectId, name: "w", kind: "workflow", runtime: { type: "echo" } },
  });
  return { organizationId, projectId, agentId };
}

/** The figures the counters replace, counted from the rows. */
async function counted(organizationId: string, startOfDay: Date) {
  const byStatus = await db.prisma.run.groupBy({ by: ["status"], where: { organizationId }, _count: true });
  return {
    runs: Object.fromEntries(RUN_STATUSES.map((s) => [s, byStatus.find((g) => g.status === s)?._count ?? 0])),
    sessions_today: await db.prisma.session.count({
      where: { organizationId, environment: "production", createdAt: { gte: startOfDay } },
    }),
  };
}

describe("overview counts", () => {
  it("equal the rows' counts after inserts, status moves and deletes, per organization", async () => {
    const a = await organizationWithAgent();
    const b = await organizationWithAgent();
    const now = new Date();
    const startOfDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const yesterday = new Date(startOfDay.getTime() - 3_600_000);

    const runIds: string[] = [];
    for (const [org, n] of [
      [a, 12],
      [b, 3],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const id = newId("run");
        if (org === a) runIds.push(id);
        await db.prisma.run.create({
          data: {
            id,
            organizationId: org.organizationId,
            projectId: org.projectId,
            agentId: org.agentId,
            inputs: {},
            definition: {},
          },
        });
      }
    }
    // Moves: some complete, some fail, one goes back and forth, one is deleted, and an update that
    // does not change the status.
    await db.prisma.run.updateMany({ where: { id: { in: runIds.slice(0, 5) } }, data: { status: "completed" } });
    await db.prisma.run.updateMany({ where: { id: { in: runIds.slice(5, 7) } }, data: { status: "failed" } });
    await db.prisma.run.update({ where: { id: runIds[7]! }, data: { status: "paused" } });
    await db.prisma.run.update({ where: { id: runIds[7]! }, data: { status: "running" } });
    await db.prisma.run.update({ where: { id: runIds[8]! }, data: { itemsTotal: 3 } });
    await db.prisma.run.delete({ where: { id: runIds[9]! } });

    const session = (org: typeof a, createdAt: Date, environment: "production" | "draft" = "production") =>
      db.prisma.session.create({
        data: {
          id: newId("sess"),
          organizationId: org.organizationId,
          projectId: org.projectId,
          agentId: org.agentId,
          environment,
          createdAt,
        },
      });
    for (let i = 0; i < 4; i++) await session(a, now);
    await session(a, now, "draft");
    await session(a, yesterday);
    const gone = await session(a, now);
    await db.prisma.session.delete({ where: { id: gone.id } });
    await session(b, now);

    for (const org of [a, b]) {
      const { counts } = await overview({ organizationId: org.organizationId, now });
      const expected = await counted(org.organizationId, startOfDay);
      expect(counts.runs).toEqual(expected.runs);
      expect(counts.sessions_today).toBe(expected.sessions_today);
    }
    const { counts } = await overview({ organizationId: a.organizationId, now });
    expect(counts.runs).toMatchObject({ completed: 5, failed: 2, running: 1, pending: 3 });
    expect(counts.sessions_today).toBe(4);
  });
});
