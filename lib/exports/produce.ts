// The `export` queue job (lib/queue/jobs.ts): walks the records of an export by keyset batches and
// streams them, redacted, through csv-stringify or as JSON Lines into storage. Memory stays
// constant whatever the count: one batch per source in flight, the storage write's backpressure
// pausing the walk (docs/benchmarks.md, Exports: peak RSS for 10,000 and 1,000,000 rows).
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify";
import { prisma } from "../db";
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import { log } from "../log";
import { afterCursor, encodeCursor } from "../pagination";
import { queueRetryLimit, type JobHandler } from "../queue";
import { storage } from "../storage";
import { redactor, type Redactor } from "./redact";
import { ExportFilters, ExportRedaction, type ExportKind } from "./schemas";

/** Rows read per query: large enough that a million rows are a thousand queries, small enough to hold. */
export const EXPORT_BATCH = 1000;
/** How often (rows) the export's progress is written. */
const PROGRESS_EVERY = 5000;

type Rec = Record<string, unknown>;
type Db = PrismaClient;

/** The columns of each record type: a CSV file's header is the union of its kind's types. */
const COLUMNS = {
  session: [
    "type",
    "session_id",
    "agent_id",
    "user_id",
    "status",
    "channel",
    "environment",
    "metadata",
    "message_count",
    "total_tokens",
    "cost",
    "created_at",
    "last_message_at",
  ],
  message: [
    "type",
    "message_id",
    "session_id",
    "agent_id",
    "role",
    "status",
    "content",
    "payload",
    "model",
    "total_tokens",
    "cost",
    "error",
    "created_at",
  ],
  run: [
    "type",
    "run_id",
    "agent_id",
    "status",
    "trigger_type",
    "inputs",
    "error",
    "items_total",
    "created_at",
    "started_at",
    "completed_at",
  ],
  run_item: ["type", "item_id", "run_id", "index", "status", "data", "result", "error", "created_at"],
  delivery: [
    "type",
    "delivery_id",
    "agent_id",
    "subject_id",
    "event",
    "url",
    "status",
    "attempts",
    "last_status_code",
    "body",
    "created_at",
    "delivered_at",
  ],
  evaluation_case: [
    "type",
    "case_id",
    "evaluation_id",
    "position",
    "source_type",
    "source_id",
    "outcome",
    "skip_reason",
    "changed",
    "input",
    "baseline_output",
    "baseline_error",
    "baseline_latency_ms",
    "candidate_output",
    "candidate_error",
    "candidate_latency_ms",
    "tokens",
    "cost",
    "checks",
    "verdict",
    "verdict_note",
    "verdict_by",
    "finished_at",
  ],
  audit_event: [
    "type",
    "event_id",
    "created_at",
    "actor_type",
    "actor_id",
    "actor_label",
    "action",
    "target_type",
    "target_id",
    "data",
  ],
} as const;

const TYPES_OF: Record<ExportKind, (keyof typeof COLUMNS)[]> = {
  sessions: ["session", "message"],
  runs: ["run", "run_item"],
  deliveries: ["delivery"],
  audit: ["audit_event"],
  user_timeline: ["session", "message", "run", "run_item", "delivery"],
  evaluation_cases: ["evaluation_case"],
};

/** The CSV header of a kind: each record type's columns, once, in order. */
export const columnsOf = (kind: ExportKind): string[] => [...new Set(TYPES_OF[kind].flatMap((t) => COLUMNS[t]))];

const iso = (d: Date | null) => d?.toISOString() ?? null;

// The records, as the export writes them: JSON columns redacted by field name, every string by
// pattern (r.apply on the whole record).
const sessionRec = (r: Redactor, s: Prisma.SessionGetPayload<object>): Rec =>
  r.apply({
    type: "session",
    session_id: s.id,
    agent_id: s.agentId,
    user_id: s.userId,
    status: s.status,
    channel: s.channel,
    environment: s.environment,
    metadata: r.apply(s.metadata, { fields: true }),
    message_count: s.messageCount,
    total_tokens: s.totalTokens,
    cost: s.cost,
    created_at: iso(s.createdAt),
    last_message_at: iso(s.lastMessageAt),
  });

const messageRec = (r: Redactor, m: Prisma.MessageGetPayload<object>): Rec =>
  r.apply({
    type: "message",
    message_id: m.id,
    session_id: m.sessionId,
    agent_id: m.agentId,
    role: m.role,
    status: m.status,
    content: m.content,
    payload: r.apply(m.payload, { fields: true }),
    model: m.model,
    total_tokens: m.totalTokens,
    cost: m.cost,
    error: m.error,
    created_at: iso(m.createdAt),
  });

const runRec = (r: Redactor, x: Prisma.RunGetPayload<object>): Rec =>
  r.apply({
    type: "run",
    run_id: x.id,
    agent_id: x.agentId,
    status: x.status,
    trigger_type: x.triggerType,
    inputs: r.apply(x.inputs, { fields: true }),
    error: x.error,
    items_total: x.itemsTotal,
    created_at: iso(x.createdAt),
    started_at: iso(x.startedAt),
    completed_at: iso(x.completedAt),
  });

const itemRec = (r: Redactor, i: Prisma.RunItemGetPayload<object>): Rec =>
  r.apply({
    type: "run_item",
    item_id: i.id,
    run_id: i.runId,
    index: i.index,
    status: i.status,
    data: r.apply(i.data, { fields: true }),
    result: r.apply(i.result, { fields: true }),
    error: i.error,
    created_at: iso(i.createdAt),
  });

/** A delivery's body is the JSON text sent: redacted as JSON when it parses, as text otherwise. */
function redactBody(r: Redactor, body: string): string {
  if (r.rules.length === 0) return body;
  try {
    return JSON.stringify(r.apply(JSON.parse(body) as unknown, { fields: true }));
  } catch {
    return r.text(body);
  }
}

const deliveryRec = (r: Redactor, d: Prisma.CallbackDeliveryGetPayload<object>): Rec =>
  r.apply({
    type: "delivery",
    delivery_id: d.id,
    agent_id: d.agentId,
    subject_id: d.subjectId,
    event: d.event,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    last_status_code: d.lastStatusCode,
    body: redactBody(r, d.body),
    created_at: iso(d.createdAt),
    delivered_at: iso(d.deliveredAt),
  });

const auditRec = (r: Redactor, e: Prisma.AuditEventGetPayload<object>): Rec =>
  r.apply({
    type: "audit_event",
    event_id: e.id,
    created_at: iso(e.createdAt),
    actor_type: e.actorType,
    actor_id: e.actorId,
    actor_label: e.actorLabel,
    action: e.action,
    target_type: e.targetType,
    target_id: e.targetId,
    data: r.apply(e.data, { fields: true }),
  });

type Side = { output?: unknown; error?: string | null; latency_ms?: number | null } | null;

const caseRec = (r: Redactor, c: Prisma.EvaluationCaseGetPayload<object>): Rec => {
  const baseline = c.baseline as Side;
  const candidate = c.candidate as Side;
  return r.apply({
    type: "evaluation_case",
    case_id: c.id,
    evaluation_id: c.evaluationId,
    position: c.position,
    source_type: c.sourceType,
    source_id: c.sourceId,
    outcome: c.outcome,
    skip_reason: c.skipReason,
    changed: c.changed,
    input: c.input,
    baseline_output: baseline?.output ?? null,
    baseline_error: baseline?.error ?? null,
    baseline_latency_ms: baseline?.latency_ms ?? null,
    candidate_output: candidate?.output ?? null,
    candidate_error: candidate?.error ?? null,
    candidate_latency_ms: candidate?.latency_ms ?? null,
    tokens: c.tokens,
    cost: c.cost,
    checks: c.checkResults,
    verdict: c.verdict,
    verdict_note: c.verdictNote,
    verdict_by: c.verdictBy,
    finished_at: iso(c.finishedAt),
  });
};

/** Every row of a query in keyset batches: `fetch` gets the cursor after the previous batch's last row. */
async function* batches<T extends { id: string }>(
  fetch: (cursor: string | undefined) => Promise<T[]>,
  at: (row: T) => Date | number,
): AsyncGenerator<T> {
  let cursor: string | undefined;
  for (;;) {
    const rows = await fetch(cursor);
    yield* rows;
    const last = rows.at(-1);
    if (rows.length < EXPORT_BATCH || !last) return;
    cursor = encodeCursor({ at: at(last), id: last.id });
  }
}

const range = (f: ExportFilters) =>
  f.from || f.to
    ? { createdAt: { ...(f.from ? { gte: new Date(f.from) } : {}), ...(f.to ? { lte: new Date(f.to) } : {}) } }
    : {};

/** Runs of an end user: their inputs name them (`inputs.user_id`), as the timeline reads them. */
const runUser = (userId: string | undefined) => (userId ? { inputs: { path: ["user_id"], equals: userId } } : {});

function sessionWhere(org: string, f: ExportFilters): Prisma.SessionWhereInput {
  return {
    organizationId: org,
    ...(f.agent_id ? { agentId: f.agent_id } : {}),
    ...(f.status ? { status: f.status } : {}),
    ...(f.user_id ? { userId: f.user_id } : {}),
    ...range(f),
  };
}

function runWhere(org: string, f: ExportFilters): Prisma.RunWhereInput {
  return {
    organizationId: org,
    ...(f.agent_id ? { agentId: f.agent_id } : {}),
    ...(f.status ? { status: f.status } : {}),
    ...runUser(f.user_id),
    ...range(f),
  };
}

/** Delivery ids of the end user's messages and runs: the subjects of their callbacks. */
const userSubjects = (org: string, userId: string) => Prisma.sql`(
  d.subject_id IN (SELECT m.id FROM messages m JOIN sessions s ON s.id = m.session_id
                   WHERE s.organization_id = ${org} AND m.organization_id = ${org} AND s.user_id = ${userId})
  OR d.subject_id IN (SELECT r.id FROM runs r WHERE r.organization_id = ${org} AND r.inputs->>'user_id' = ${userId}))`;

/** Deliveries in `order` by (created_at, id) or by id: a raw query for the end-user condition, Prisma otherwise. */
function deliveries(db: Db, org: string, f: ExportFilters, order: "asc" | "desc") {
  const where: Prisma.CallbackDeliveryWhereInput = {
    organizationId: org,
    ...(f.agent_id ? { agentId: f.agent_id } : {}),
    ...(f.status ? { status: f.status } : {}),
    ...range(f),
  };
  return batches(
    async (cursor) => {
      if (!f.user_id) {
        return db.callbackDelivery.findMany({
          where: { ...where, ...afterCursor("createdAt", cursor, order) },
          orderBy: [{ createdAt: order }, { id: order }],
          take: EXPORT_BATCH,
        });
      }
      const after = cursor ? (JSON.parse(Buffer.from(cursor, "base64url").toString()) as [string, string]) : null;
      const cmp = order === "asc" ? Prisma.sql`>` : Prisma.sql`<`;
      const dir = order === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`;
      const ids = await db.$queryRaw<{ id: string }[]>`
      SELECT d.id FROM callback_deliveries d
      WHERE d.organization_id = ${org} AND ${userSubjects(org, f.user_id)}
        ${f.agent_id ? Prisma.sql`AND d.agent_id = ${f.agent_id}` : Prisma.empty}
        ${f.status ? Prisma.sql`AND d.status = ${f.status}` : Prisma.empty}
        ${f.from ? Prisma.sql`AND d.created_at >= ${new Date(f.from)}` : Prisma.empty}
        ${f.to ? Prisma.sql`AND d.created_at <= ${new Date(f.to)}` : Prisma.empty}
        ${after ? Prisma.sql`AND (d.created_at, d.id) ${cmp} (${new Date(after[0])}, ${after[1]})` : Prisma.empty}
      ORDER BY d.created_at ${dir}, d.id ${dir} LIMIT ${EXPORT_BATCH}`;
      const rows = await db.callbackDelivery.findMany({ where: { id: { in: ids.map((x) => x.id) } } });
      const byId = new Map(rows.map((x) => [x.id, x]));
      return ids.map((x) => byId.get(x.id)!).filter(Boolean);
    },
    (d) => d.createdAt,
  );
}

/** A session's messages, oldest first. */
function messagesOf(db: Db, sessionId: string) {
  return batches(
    (cursor) =>
      db.message.findMany({
        where: { sessionId, ...afterCursor("createdAt", cursor, "asc") },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take: EXPORT_BATCH,
      }),
    (m) => m.createdAt,
  );
}

/** A run's items in their order. */
function itemsOf(db: Db, runId: string) {
  let after = -1;
  return (async function* () {
    for (;;) {
      const rows = await db.runItem.findMany({
        where: { runId, index: { gt: after } },
        orderBy: { index: "asc" },
        take: EXPORT_BATCH,
      });
      yield* rows;
      if (rows.length < EXPORT_BATCH) return;
      after = rows.at(-1)!.index;
    }
  })();
}

/** Records of the export, in its order. */
async function* records(db: Db, kind: ExportKind, org: string, f: ExportFilters, r: Redactor): AsyncGenerator<Rec> {
  if (kind === "sessions") {
    // The list's order (last activity, newest first) on its index.
    const sessions = batches(
      (cursor) =>
        db.session.findMany({
          where: { ...sessionWhere(org, f), ...afterCursor("lastMessageAt", cursor) },
          orderBy: [{ lastMessageAt: "desc" }, { id: "desc" }],
          take: EXPORT_BATCH,
        }),
      (s) => s.lastMessageAt,
    );
    for await (const s of sessions) {
      yield sessionRec(r, s);
      for await (const m of messagesOf(db, s.id)) yield messageRec(r, m);
    }
  } else if (kind === "runs") {
    const runs = batches(
      (cursor) =>
        db.run.findMany({
          where: { ...runWhere(org, f), ...afterCursor("createdAt", cursor) },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          take: EXPORT_BATCH,
        }),
      (x) => x.createdAt,
    );
    for await (const x of runs) {
      yield runRec(r, x);
      for await (const i of itemsOf(db, x.id)) yield itemRec(r, i);
    }
  } else if (kind === "deliveries") {
    for await (const d of deliveries(db, org, f, "desc")) yield deliveryRec(r, d);
  } else if (kind === "audit") {
    const prefix = f.action?.endsWith(".*") ? f.action.slice(0, -1) : undefined;
    const action = prefix ? { action: { startsWith: prefix } } : f.action ? { action: f.action } : {};
    const events = batches(
      (cursor) =>
        db.auditEvent.findMany({
          where: { organizationId: org, ...action, ...range(f), ...afterCursor("createdAt", cursor) },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          take: EXPORT_BATCH,
        }),
      (e) => e.createdAt,
    );
    for await (const e of events) yield auditRec(r, e);
  } else if (kind === "evaluation_cases") {
    // In replay order, by position.
    let after = -1;
    for (;;) {
      const rows = await db.evaluationCase.findMany({
        where: { organizationId: org, evaluationId: f.evaluation_id ?? "", position: { gt: after } },
        orderBy: { position: "asc" },
        take: EXPORT_BATCH,
      });
      for (const c of rows) yield caseRec(r, c);
      if (rows.length < EXPORT_BATCH) return;
      after = rows.at(-1)!.position;
    }
  } else {
    yield* timeline(db, org, f, r);
  }
}

/**
 * One end user's timeline, oldest first: their sessions, the messages of those sessions, the runs
 * whose inputs name them with their items, and the deliveries of those messages and runs, merged by
 * time from one keyset walk each (one batch of each in memory).
 */
async function* timeline(db: Db, org: string, f: ExportFilters, r: Redactor): AsyncGenerator<Rec> {
  const asc = <T extends { id: string; createdAt: Date }>(fetch: (after: object) => Promise<T[]>) =>
    batches(
      (cursor) => fetch(afterCursor("createdAt", cursor, "asc")),
      (x) => x.createdAt,
    );
  const order = [{ createdAt: "asc" as const }, { id: "asc" as const }];
  const agent = f.agent_id ? { agentId: f.agent_id } : {};
  const sources: AsyncGenerator<{ at: Date; rec: () => Rec }>[] = [
    map(
      asc((after) =>
        db.session.findMany({ where: { ...sessionWhere(org, f), ...after }, orderBy: order, take: EXPORT_BATCH }),
      ),
      (s) => ({ at: s.createdAt, rec: () => sessionRec(r, s) }),
    ),
    map(
      asc((after) =>
        db.message.findMany({
          where: {
            organizationId: org,
            ...agent,
            ...range(f),
            session: { organizationId: org, userId: f.user_id },
            ...after,
          },
          orderBy: order,
          take: EXPORT_BATCH,
        }),
      ),
      (m) => ({ at: m.createdAt, rec: () => messageRec(r, m) }),
    ),
    map(
      asc((after) =>
        db.run.findMany({
          where: { ...runWhere(org, { ...f, status: undefined }), ...after },
          orderBy: order,
          take: EXPORT_BATCH,
        }),
      ),
      (x) => ({ at: x.createdAt, rec: () => runRec(r, x) }),
    ),
    map(
      asc((after) =>
        db.runItem.findMany({
          where: { run: { organizationId: org, ...agent, ...runUser(f.user_id) }, ...range(f), ...after },
          orderBy: order,
          take: EXPORT_BATCH,
        }),
      ),
      (i) => ({ at: i.createdAt, rec: () => itemRec(r, i) }),
    ),
    map(deliveries(db, org, { ...f, status: undefined }, "asc"), (d) => ({
      at: d.createdAt,
      rec: () => deliveryRec(r, d),
    })),
  ];
  const heads = await Promise.all(sources.map((s) => s.next()));
  for (;;) {
    let pick = -1;
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i]!;
      if (!h.done && (pick < 0 || h.value.at < (heads[pick]!.value as { at: Date }).at)) pick = i;
    }
    if (pick < 0) return;
    yield (heads[pick]!.value as { rec: () => Rec }).rec();
    heads[pick] = await sources[pick]!.next();
  }
}

async function* map<T, U>(source: AsyncGenerator<T>, f: (t: T) => U): AsyncGenerator<U> {
  for await (const t of source) yield f(t);
}

/** How many rows the export will write, about: records and their children from the counters. */
async function estimate(db: Db, kind: ExportKind, org: string, f: ExportFilters): Promise<number | null> {
  if (kind === "sessions" || kind === "user_timeline") {
    const s = await db.session.aggregate({ where: sessionWhere(org, f), _count: true, _sum: { messageCount: true } });
    const sessions = s._count + (s._sum.messageCount ?? 0);
    if (kind === "sessions") return sessions;
    const runs = await db.run.aggregate({
      where: runWhere(org, { ...f, status: undefined }),
      _count: true,
      _sum: { itemsTotal: true },
    });
    return sessions + runs._count + (runs._sum.itemsTotal ?? 0);
  }
  if (kind === "runs") {
    const x = await db.run.aggregate({ where: runWhere(org, f), _count: true, _sum: { itemsTotal: true } });
    return x._count + (x._sum.itemsTotal ?? 0);
  }
  if (kind === "audit") return db.auditEvent.count({ where: { organizationId: org, ...range(f) } });
  if (kind === "evaluation_cases") {
    return db.evaluationCase.count({ where: { organizationId: org, evaluationId: f.evaluation_id ?? "" } });
  }
  if (f.user_id) return null;
  return db.callbackDelivery.count({
    where: {
      organizationId: org,
      ...(f.status ? { status: f.status } : {}),
      ...(f.agent_id ? { agentId: f.agent_id } : {}),
      ...range(f),
    },
  });
}

// A cell that a spreadsheet would read as a formula (=, +, -, @, tab, carriage return first) is
// written with a leading apostrophe: an exported message must not run in the reader's spreadsheet.
const FORMULA_START = /^[=+\-@\t\r]/;
export const csvCell = (v: unknown): string => {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return FORMULA_START.test(s) ? `'${s}` : s;
};

/** The export's bytes as a stream: a CSV header and rows, or one JSON object a line. */
export function encode(kind: ExportKind, format: "csv" | "jsonl", source: AsyncIterable<Rec>): NodeJS.ReadableStream {
  if (format === "jsonl") {
    return Readable.from(
      (async function* () {
        for await (const rec of source) yield `${JSON.stringify(rec)}\n`;
      })(),
    );
  }
  const columns = columnsOf(kind);
  const csv = stringify({
    header: true,
    columns,
    cast: { object: csvCell, string: csvCell, boolean: (b) => String(b) },
  });
  pipeline(Readable.from(source), csv).catch((err: Error) => csv.destroy(err));
  return csv;
}

/** Writes one export's file; the progress is written every few thousand rows. */
export async function produceExport(exportId: string, signal?: AbortSignal): Promise<void> {
  const db = await prisma();
  const row = await db.export.findUnique({ where: { id: exportId } });
  if (!row || row.status === "succeeded" || row.status === "failed") return;
  const kind = row.kind as ExportKind;
  const filters = ExportFilters.parse(row.filters);
  const r = redactor(ExportRedaction.parse(row.redact));
  const rowsEstimated = await estimate(db, kind, row.organizationId, filters);
  await db.export.update({
    where: { id: row.id },
    data: { status: "running", startedAt: new Date(), rowsWritten: 0, rowsEstimated },
  });
  let written = 0;
  const counted = async function* () {
    for await (const rec of records(db, kind, row.organizationId, filters, r)) {
      yield rec;
      if (++written % PROGRESS_EVERY === 0) {
        await db.export.update({ where: { id: row.id }, data: { rowsWritten: written } });
      }
    }
  };
  const key = `exports/${row.organizationId}/${row.id}.${row.format}`;
  const { size } = await storage().write(key, encode(kind, row.format as "csv" | "jsonl", counted()), { signal });
  await db.export.update({
    where: { id: row.id },
    data: { status: "succeeded", rowsWritten: written, sizeBytes: size, storageKey: key, finishedAt: new Date() },
  });
}

export const exportJob: JobHandler<"export"> = async (data, job) => {
  try {
    await produceExport(data.exportId, job.signal);
  } catch (err) {
    log.warn({ err: { message: (err as Error).message }, export_id: data.exportId }, "export failed");
    if (job.retryCount >= queueRetryLimit()) {
      const db = await prisma();
      await db.export.update({
        where: { id: data.exportId },
        data: { status: "failed", errorCode: "internal_error", finishedAt: new Date() },
      });
      return;
    }
    throw err;
  }
};
