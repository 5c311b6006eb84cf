// The case timeline of one end user (docs/console.md, Case timeline): everything the organization
// holds about them, newest first, in keyset pages over one UNION ALL of
//   their sessions (`user_id`) and those sessions' messages;
//   the runs whose inputs name them (`"user_id": ...`);
//   the Access Keys that acted for them: the key that started each session (`access_key_id`, an
//   entry `key:<session id>` at the session's start) and each run (its `run.trigger` audit row);
//   review decisions on those runs' items (`run.approval_resolved`);
//   the callback deliveries of those messages and runs.
import { Prisma } from "../generated/prisma/client";
import { decodeCursor, pageOf } from "../pagination";
import { ApiError } from "../errors";
import type { UserTimelineEntry, TimelineKind, TimelinePage } from "./schemas";
import { runsOfUser, snippet } from "./service";
import { boundedQuery } from "./sql";

interface Row {
  kind: TimelineKind;
  id: string;
  at: Date;
  /** The session of a message, the run of a key's trigger or a review, the subject of a delivery. */
  ref: string | null;
  a: string | null;
  b: string | null;
}

function entry(row: Row): UserTimelineEntry {
  const ref = row.ref ?? "";
  const at = row.at.toISOString();
  const base = { kind: row.kind, id: row.id, at };
  switch (row.kind) {
    case "session":
      return {
        ...base,
        summary: `Session started with ${row.a ?? "an agent"} (${row.b})`,
        href: `/sessions/${row.id}`,
      };
    case "message":
      return { ...base, summary: `${row.a} message: ${snippet(row.b ?? "")}`, href: `/sessions/${ref}#${row.id}` };
    case "run":
      return { ...base, summary: `Run of ${row.a ?? "an agent"}: ${row.b}`, href: `/runs/${row.id}` };
    case "access_key":
      return {
        ...base,
        summary: `Access Key "${row.a}" (${row.b}) started ${ref}`,
        href: ref.startsWith("sess_") ? `/sessions/${ref}` : `/runs/${ref}`,
      };
    case "review":
      return {
        ...base,
        summary: `Review of an item of ${ref}: ${row.b} by ${row.a ?? "someone"}`,
        href: `/runs/${ref}`,
      };
    case "delivery":
      return {
        ...base,
        summary: `Callback ${row.a} for ${ref}: ${row.b}`,
        href: `/webhooks/deliveries/${row.id}`,
      };
  }
}

export async function userTimeline(opts: {
  organizationId: string;
  userId: string;
  limit: number;
  cursor?: string;
}): Promise<TimelinePage> {
  const org = opts.organizationId;
  const after = opts.cursor ? decodeCursor(opts.cursor) : null;
  if (after && !(after.at instanceof Date))
    throw new ApiError("invalid_request", "cursor is not a cursor of this list.", {
      fields: [{ field: "cursor", message: "is not a cursor of this list" }],
    });
  // Each branch repeats the cursor's bound so that it reads only the rows after it.
  const before = (at: string, id: string) =>
    after
      ? Prisma.sql`AND (${Prisma.raw(at)}, ${Prisma.raw(id)}) < (${after.at}::timestamp, ${after.id})`
      : Prisma.empty;

  const sql = Prisma.sql`
    WITH s AS MATERIALIZED (
      SELECT s.id, s.created_at, s.environment::text AS environment, g.name AS agent, s.access_key_id
      FROM sessions s JOIN agents g ON g.id = s.agent_id
      WHERE s.organization_id = ${org} AND s.user_id = ${opts.userId}
    ), r AS MATERIALIZED (
      SELECT r.id, r.created_at, r.status, g.name AS agent
      FROM runs r JOIN agents g ON g.id = r.agent_id
      WHERE r.organization_id = ${org} AND ${runsOfUser(opts.userId)}
    ), m AS MATERIALIZED (
      SELECT m.id, m.created_at, m.session_id, m.role, m.content
      FROM messages m JOIN s ON s.id = m.session_id
    )
    SELECT * FROM (
      SELECT 'session' AS kind, s.id, s.created_at AS at, NULL AS ref, s.agent AS a, s.environment AS b
        FROM s WHERE true ${before("s.created_at", "s.id")}
      UNION ALL
      SELECT 'message', m.id, m.created_at, m.session_id, m.role, left(m.content, 400)
        FROM m WHERE true ${before("m.created_at", "m.id")}
      UNION ALL
      SELECT 'run', r.id, r.created_at, NULL, r.agent, r.status
        FROM r WHERE true ${before("r.created_at", "r.id")}
      UNION ALL
      SELECT 'access_key', 'key:' || s.id, s.created_at, s.id, k.name, k.id
        FROM s JOIN access_keys k ON k.id = s.access_key_id AND k.organization_id = ${org}
        WHERE true ${before("s.created_at", "('key:' || s.id)")}
      UNION ALL
      SELECT 'access_key', e.id, e.created_at, e.target_id, e.actor_label, e.actor_id
        FROM audit_events e JOIN r ON e.target_type = 'run' AND e.target_id = r.id
        WHERE e.organization_id = ${org} AND e.action = 'run.trigger' AND e.actor_type = 'access_key'
          ${before("e.created_at", "e.id")}
      UNION ALL
      SELECT 'review', e.id, e.created_at, i.run_id, e.actor_label, e.data->>'resolution'
        FROM r JOIN run_items i ON i.run_id = r.id
          JOIN audit_events e ON e.target_type = 'run_item' AND e.target_id = i.id
        WHERE e.organization_id = ${org} AND e.action = 'run.approval_resolved'
          ${before("e.created_at", "e.id")}
      UNION ALL
      SELECT 'delivery', d.id, d.created_at, d.subject_id, d.event, d.status
        FROM callback_deliveries d
        WHERE d.organization_id = ${org}
          AND d.subject_id IN (SELECT id FROM r UNION ALL SELECT id FROM m)
          ${before("d.created_at", "d.id")}
    ) entries
    ORDER BY at DESC, id DESC
    LIMIT ${opts.limit + 1}`;

  const rows = await boundedQuery((query) => query<Row>(sql));
  const page = pageOf(rows, opts.limit, (r) => r.at);
  return {
    user_id: opts.userId,
    entries: page.rows.map(entry),
    has_more: page.has_more,
    next_cursor: page.next_cursor,
  };
}
