// Retention on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL) and real file storage:
// what is older than an organization's retention goes, in batches that a later sweep continues;
// what is younger, still live, still pending, or in an organization that keeps everything stays.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "../env";
import { newFileId, newId } from "../ids";
import { storage } from "../storage";
import { openTestDatabase } from "../../test-support/db";
import { tryAdvisoryLock } from "../db/advisory-lock";
import { userActor } from "../audit";
import { retentionSetting, setRetention, sweepRetention, sweepRetentionExclusively } from "./service";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
const SAVED = { ...process.env };

beforeAll(async () => {
  process.env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), "retention-"));
  process.env.RETENTION_DAYS = "0";
  resetEnvCache();
  db = await openTestDatabase();
});
afterAll(async () => {
  await db.dispose();
  process.env = SAVED;
  resetEnvCache();
});

const NOW = new Date("2026-11-27T12:00:00.000Z");
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000);

/** An organization with one agent of each kind and a history of every kind, old (40 days) and new (10 days). */
async function organizationWithHistory(retentionDays: number | null, oldSessions = 1) {
  const org = newId("org");
  const project = newId("proj");
  const conv = newId("agt");
  const wf = newId("agt");
  const p = db.prisma;
  await p.organization.create({ data: { id: org, name: `retention-${org}`, retentionDays } });
  await p.project.create({ data: { id: project, organizationId: org, name: "Default" } });
  for (const [id, kind] of [
    [conv, "conversational"],
    [wf, "workflow"],
  ] as const) {
    await p.agent.create({
      data: { id, organizationId: org, projectId: project, name: kind, kind, runtime: { type: "echo" } },
    });
  }
  const base = { organizationId: org, projectId: project, agentId: conv };
  // Old sessions (with two messages each) by SQL, a new one through Prisma.
  await db.sql.query(
    `INSERT INTO sessions (id, organization_id, project_id, agent_id, created_at, last_message_at)
     SELECT $1 || i, $2, $3, $4, $5, $5 FROM generate_series(1, $6::int) i`,
    [`sess_old_${org}_`, org, project, conv, daysAgo(40).toISOString(), oldSessions],
  );
  await db.sql.query(
    `INSERT INTO messages (id, session_id, agent_id, organization_id, project_id, role, status, created_at)
     SELECT 'msg_' || s.id || '_' || r, s.id, s.agent_id, s.organization_id, s.project_id, 'user', 'completed', s.created_at
     FROM sessions s, generate_series(1, 2) r WHERE s.organization_id = $1`,
    [org],
  );
  const newSession = await p.session.create({ data: { id: newId("sess"), ...base, lastMessageAt: daysAgo(10) } });

  const run = (status: string, createdAt: Date, itemsTotal = 0) =>
    p.run.create({
      data: { id: newId("run"), ...base, agentId: wf, status, inputs: {}, definition: {}, itemsTotal, createdAt },
    });
  const oldRun = await run("completed", daysAgo(40), 12_000);
  await db.sql.query(
    `INSERT INTO run_items (id, run_id, index, status, data, updated_at)
     SELECT $1 || i, $2, i, 'completed', '{}', now() FROM generate_series(0, 11999) i`,
    [`ri_${oldRun.id}_`, oldRun.id],
  );
  const outputKey = `outputs/${oldRun.id}/result.csv`;
  await storage().write(outputKey, Readable.from([Buffer.from("a,b\n")]));
  await p.outputFile.create({
    data: {
      id: `out_${oldRun.id}`,
      runId: oldRun.id,
      filename: "result.csv",
      contentType: "text/csv",
      sizeBytes: 4,
      storageKey: outputKey,
    },
  });
  const liveOldRun = await run("needs_review", daysAgo(40));
  const newRun = await run("failed", daysAgo(10));

  const fileKey = `files/${org}/old.csv`;
  await storage().write(fileKey, Readable.from([Buffer.from("x\n")]));
  const oldFile = await p.file.create({
    data: {
      id: newFileId(),
      organizationId: org,
      agentId: wf,
      filename: "old.csv",
      contentType: "text/csv",
      sizeBytes: 2,
      storageKey: fileKey,
      createdAt: daysAgo(40),
    },
  });
  await p.upload.create({
    data: {
      id: `upl_${org}`,
      organizationId: org,
      agentId: wf,
      filename: "old.csv",
      contentType: "text/csv",
      sizeBytes: 2,
      fileId: oldFile.id,
      createdAt: daysAgo(40),
    },
  });
  const delivery = (status: string) =>
    p.callbackDelivery.create({
      data: {
        id: newId("dlv"),
        organizationId: org,
        agentId: wf,
        subjectId: oldRun.id,
        event: "run.completed",
        url: "https://example.com/hook",
        body: "{}",
        status,
        createdAt: daysAgo(40),
      },
    });
  const oldDelivered = await delivery("delivered");
  const oldPending = await delivery("pending");
  const auditRow = (createdAt: Date) =>
    p.auditEvent.create({
      data: {
        id: newId("evt"),
        organizationId: org,
        actorType: "system",
        action: "key.created",
        actionGroup: "key",
        targetType: "key",
        targetId: "key_x",
        createdAt,
      },
    });
  const oldAudit = await auditRow(daysAgo(40));
  const newAudit = await auditRow(daysAgo(10));
  // Evaluations: an old finished one with 6,000 cases (more than a statement may cascade to), an old
  // one still running (kept whatever its age), a young one.
  const evaluation = async (status: string, createdAt: Date, cases: number) => {
    const id = newId("eval");
    await p.evaluation.create({
      data: {
        id,
        organizationId: org,
        agentId: conv,
        status,
        candidateVersion: 1,
        sourceKind: "sessions",
        source: {},
        casesTotal: cases,
        actorType: "system",
        createdAt,
      },
    });
    await db.sql.query(
      `INSERT INTO evaluation_cases (id, evaluation_id, organization_id, position, source_type, source_id, input)
       SELECT $1 || i, $2, $3, i, 'session', 'sess_x', '{}' FROM generate_series(0, $4 - 1) i`,
      [`evc_${id}_`, id, org, cases],
    );
    return id;
  };
  const oldEvaluation = await evaluation("completed", daysAgo(40), 6_000);
  const liveOldEvaluation = await evaluation("running", daysAgo(40), 2);
  const newEvaluation = await evaluation("stopped", daysAgo(10), 2);
  return {
    oldEvaluation,
    liveOldEvaluation,
    newEvaluation,
    org,
    newSession,
    oldRun,
    liveOldRun,
    newRun,
    oldFile,
    fileKey,
    outputKey,
    oldDelivered,
    oldPending,
    oldAudit,
    newAudit,
  };
}

const exists = async (key: string) =>
  storage()
    .size(key)
    .then(() => true)
    .catch(() => false);

describe("retention", () => {
  it("deletes what is older than the organization's retention, in batches, and keeps the rest", async () => {
    const a = await organizationWithHistory(30, 1_200); // more old sessions than one batch
    const forever = await organizationWithHistory(null); // RETENTION_DAYS=0: kept forever
    const explicitForever = await organizationWithHistory(0);
    const p = db.prisma;

    // A sweep with no time left does one batch of each kind; the next one continues.
    const first = await sweepRetention({ now: NOW, budgetMs: 0 });
    expect(first.get(a.org)).toEqual({ sessions: 500, runs: 1, uploads: 1, deliveries: 1, audit: 1, evaluations: 1 });
    const second = await sweepRetention({ now: NOW });
    expect(second.get(a.org)).toEqual({ sessions: 700, runs: 0, uploads: 0, deliveries: 0, audit: 0, evaluations: 0 });
    expect([...second.keys()]).toEqual([a.org]);

    // Gone: old sessions with their messages, the finished run with its 12,000 items and output file,
    // the old file with its upload record and bytes, the settled delivery, the old audit row.
    expect(await p.session.count({ where: { organizationId: a.org } })).toBe(1);
    expect(await p.message.count({ where: { organizationId: a.org } })).toBe(0);
    expect(await p.run.findUnique({ where: { id: a.oldRun.id } })).toBeNull();
    expect(await p.runItem.count({ where: { runId: a.oldRun.id } })).toBe(0);
    expect(await p.outputFile.count({ where: { runId: a.oldRun.id } })).toBe(0);
    expect(await exists(a.outputKey)).toBe(false);
    expect(await p.file.findUnique({ where: { id: a.oldFile.id } })).toBeNull();
    expect(await p.upload.count({ where: { fileId: a.oldFile.id } })).toBe(0);
    expect(await exists(a.fileKey)).toBe(false);
    expect(await p.callbackDelivery.findUnique({ where: { id: a.oldDelivered.id } })).toBeNull();
    expect(await p.auditEvent.findUnique({ where: { id: a.oldAudit.id } })).toBeNull();
    expect(await p.evaluation.findUnique({ where: { id: a.oldEvaluation } })).toBeNull();
    expect(await p.evaluationCase.count({ where: { evaluationId: a.oldEvaluation } })).toBe(0);
    expect(await p.evaluation.findUnique({ where: { id: a.liveOldEvaluation } })).not.toBeNull();
    expect(await p.evaluation.findUnique({ where: { id: a.newEvaluation } })).not.toBeNull();
    // Kept: the young, the live and the pending.
    expect(await p.session.findUnique({ where: { id: a.newSession.id } })).not.toBeNull();
    expect(await p.run.findUnique({ where: { id: a.liveOldRun.id } })).not.toBeNull();
    expect(await p.run.findUnique({ where: { id: a.newRun.id } })).not.toBeNull();
    expect(await p.callbackDelivery.findUnique({ where: { id: a.oldPending.id } })).not.toBeNull();
    expect(await p.auditEvent.findUnique({ where: { id: a.newAudit.id } })).not.toBeNull();
    // One audit row per sweep that deleted something, with the counts.
    const swept = await p.auditEvent.findMany({ where: { organizationId: a.org, action: "retention.swept" } });
    expect(swept).toHaveLength(2);
    expect(swept.map((e) => (e.data as { deleted: { sessions: number } }).deleted.sessions).sort()).toEqual([500, 700]);

    // Organizations that keep everything keep everything.
    for (const o of [forever, explicitForever]) {
      expect(await p.session.count({ where: { organizationId: o.org } })).toBe(2);
      expect(await p.run.findUnique({ where: { id: o.oldRun.id } })).not.toBeNull();
      expect(await p.runItem.count({ where: { runId: o.oldRun.id } })).toBe(12_000);
      expect(await exists(o.outputKey)).toBe(true);
      expect(await p.auditEvent.findUnique({ where: { id: o.oldAudit.id } })).not.toBeNull();
      expect(await p.evaluationCase.count({ where: { evaluationId: o.oldEvaluation } })).toBe(6_000);
    }

    // Nothing left to do: a third sweep deletes nothing and writes no audit row.
    expect((await sweepRetention({ now: NOW })).size).toBe(0);
    expect(await p.auditEvent.count({ where: { organizationId: a.org, action: "retention.swept" } })).toBe(2);

    // What the console shows: the setting and the oldest record kept of each kind.
    const kept = await retentionSetting({ organizationId: a.org });
    expect(kept).toMatchObject({ retention_days: 30, effective_days: 30, default_retention_days: 0 });
    expect(kept.oldest.sessions).toBe(daysAgo(10).toISOString());
    expect(kept.oldest.runs).toBe(daysAgo(40).toISOString()); // the live run stays
    expect(kept.oldest.uploads).toBeNull();
    expect(kept.oldest.deliveries).toBe(daysAgo(40).toISOString()); // the pending one stays
    expect(kept).not.toHaveProperty("preview");
  });

  it("deletes a session with more messages than a statement may cascade to, in chunks", async () => {
    const o = await organizationWithHistory(30);
    const [big] = await db.sql.query<{ id: string }>(
      `SELECT id FROM sessions WHERE organization_id = $1 AND last_message_at < $2`,
      [o.org, daysAgo(30).toISOString()],
    );
    await db.sql.query(
      `INSERT INTO messages (id, session_id, agent_id, organization_id, project_id, role, status, created_at)
       SELECT 'msg_big_' || i, s.id, s.agent_id, s.organization_id, s.project_id, 'user', 'completed', s.created_at
       FROM sessions s, generate_series(1, 12000) i WHERE s.id = $1`,
      [big!.id],
    );
    await db.sql.query(`UPDATE sessions SET message_count = 12002 WHERE id = $1`, [big!.id]);
    const swept = await sweepRetention({ now: NOW });
    expect(swept.get(o.org)?.sessions).toBe(1);
    expect(await db.prisma.message.count({ where: { sessionId: big!.id } })).toBe(0);
    expect(await db.prisma.session.findUnique({ where: { id: o.newSession.id } })).not.toBeNull();
  });

  it("sets the organization's retention: audited before and after, a repeat is no change", async () => {
    const o = await organizationWithHistory(null);
    const actor = userActor({ userId: "usr_retention", email: "admin@example.com" });
    const set = await setRetention({ organizationId: o.org, input: { retention_days: 30 }, actor });
    expect(set).toMatchObject({ retention_days: 30, effective_days: 30, default_retention_days: 0 });
    await setRetention({ organizationId: o.org, input: { retention_days: 30 }, actor });
    const forever = await setRetention({ organizationId: o.org, input: { retention_days: null }, actor });
    expect(forever).toMatchObject({ retention_days: null, effective_days: 0 });
    const changes = await db.prisma.auditEvent.findMany({
      where: { organizationId: o.org, action: "retention.updated" },
      orderBy: { createdAt: "asc" },
    });
    expect(changes.map((e) => e.data)).toEqual([
      { before: null, after: 30 },
      { before: 30, after: null },
    ]);
    expect(changes[0]!.actorId).toBe("usr_retention");
  });

  it("previews what a retention would delete, counting each kind up to 10,001", async () => {
    const o = await organizationWithHistory(null, 10_050);
    const preview = async (days: number) =>
      (await retentionSetting({ organizationId: o.org, previewDays: days, now: NOW })).preview;
    expect(await preview(30)).toEqual({
      retention_days: 30,
      cutoff: daysAgo(30).toISOString(),
      counts: { sessions: 10_001, runs: 1, uploads: 1, deliveries: 1, audit: 1, evaluations: 1 },
    });
    // 5 days: the young records too, never the live run or the pending delivery; forever: nothing.
    expect((await preview(5))?.counts).toEqual({
      sessions: 10_001,
      runs: 2,
      uploads: 1,
      deliveries: 1,
      audit: 2,
      evaluations: 2,
    });
    expect(await preview(0)).toEqual({
      retention_days: 0,
      cutoff: null,
      counts: { sessions: 0, runs: 0, uploads: 0, deliveries: 0, audit: 0, evaluations: 0 },
    });
  });
});

describe("one sweeping process", () => {
  it.runIf(process.env.TEST_DATABASE_URL)(
    "on PostgreSQL a process skips its turn while another holds the sweep's lock",
    async () => {
      const o = await organizationWithHistory(30);
      const held = await tryAdvisoryLock(db.connectionString!, "agent-webhook-service:retention-sweep");
      expect(held).not.toBeNull();
      // A second session cannot take it while it is held.
      expect(await tryAdvisoryLock(db.connectionString!, "agent-webhook-service:retention-sweep")).toBeNull();
      expect(await sweepRetentionExclusively({ now: NOW })).toBeNull();
      expect(await db.prisma.session.count({ where: { organizationId: o.org } })).toBe(2);
      await held!.release();
      expect((await sweepRetentionExclusively({ now: NOW }))?.get(o.org)?.sessions).toBe(1);
      expect(await db.prisma.session.count({ where: { organizationId: o.org } })).toBe(1);
    },
  );

  it.runIf(!process.env.TEST_DATABASE_URL)("on the embedded database the one process just sweeps", async () => {
    const o = await organizationWithHistory(30);
    expect((await sweepRetentionExclusively({ now: NOW }))?.get(o.org)?.sessions).toBe(1);
  });
});
