// The console's search box (docs/console.md, Search): one text read as an id (or a prefix of one),
// an end-user id, `field:value` on session metadata and run inputs, or words in message contents
// and run item data. Every query names the organization; every value is a bound parameter.
import { ApiError } from "../errors";
import { FILE_ID_RE } from "../id-format";
import { Prisma } from "../generated/prisma/client";
import {
  ID_PREFIX_MIN_CHARS,
  SEARCH_FIELD_MAX_CHARS,
  SEARCH_FIELD_RE,
  SEARCH_GROUP_SIZE,
  SEARCH_KIND_LABELS,
  SEARCH_KINDS,
  SEARCH_MAX_CHARS,
  type SearchHit,
  type SearchKind,
  type SearchResult,
} from "./schemas";
import { boundedQuery, type Sql } from "./sql";

const TAKE = SEARCH_GROUP_SIZE + 1;

/** The kind of object each id prefix names. */
const ID_KINDS: Record<string, SearchKind> = {
  sess: "session",
  msg: "message",
  run: "run",
  fi: "file",
  key: "access_key",
  agt: "agent",
  dlv: "delivery",
};

/** An id, whole or in part: its prefix and the characters typed after the underscore. */
function idShape(q: string): { kind: SearchKind; whole: boolean } | null {
  const m = /^([a-z]+)_([0-9A-Za-z]*)$/.exec(q);
  const kind = m && ID_KINDS[m[1]!];
  if (!m || !kind) return null;
  if (kind === "file") {
    if (!/^[0-9a-f]*$/.test(m[2]!)) return null;
    return { kind, whole: FILE_ID_RE.test(q) };
  }
  if (m[2]!.length > 22) return null;
  return { kind, whole: m[2]!.length === 22 };
}

export const userHref = (userId: string) => `/users/${encodeURIComponent(userId)}`;

/** The console page of one object. */
export function hrefOf(
  kind: SearchKind,
  id: string,
  row: { sessionId?: string; runId?: string; agentId?: string } = {},
) {
  switch (kind) {
    case "session":
      return `/sessions/${id}`;
    case "message":
      return `/sessions/${row.sessionId}#${id}`;
    case "run":
      return `/runs/${id}`;
    case "run_item":
      return `/runs/${row.runId}`;
    case "file":
      return `/uploads?agent_id=${row.agentId}`;
    case "access_key":
      return `/keys/${id}`;
    case "agent":
      return `/agents/${id}`;
    case "delivery":
      return `/webhooks/deliveries/${id}`;
  }
}

/** About 160 characters of `text` around the first of `words` it contains. */
export function snippet(text: string, words: string[] = []): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= 160) return flat;
  const lower = flat.toLowerCase();
  const at = words.map((w) => lower.indexOf(w.toLowerCase())).find((i) => i >= 0) ?? 0;
  const start = Math.max(0, at - 60);
  return `${start > 0 ? "…" : ""}${flat.slice(start, start + 160)}…`;
}

interface Row {
  kind: SearchKind;
  id: string;
  at: Date;
  /** The session of a message, the run of an item, the agent of a file. */
  ref: string | null;
  title: string | null;
  detail: string | null;
}

function hit(row: Row, words: string[]): SearchHit {
  const ref = row.ref ?? "";
  const href = hrefOf(row.kind, row.id, { sessionId: ref, runId: ref, agentId: ref });
  const detail = row.detail ?? "";
  return {
    kind: row.kind,
    id: row.id,
    title: row.title || row.id,
    summary: row.kind === "message" || row.kind === "run_item" ? snippet(detail, words) : detail,
    at: row.at.toISOString(),
    href,
  };
}

// One SELECT per kind, each answering Row's columns for the rows that `where` keeps, newest first.
// `where` is a Prisma.sql fragment: its values are parameters. `order` is newest first: by time, or
// for a prefix of an id by the id itself (ids begin with their time), backwards along the prefix
// index, so that a short prefix matching many rows reads only the newest few.
const byTime = (alias: string) => Prisma.raw(`${alias}.created_at DESC, ${alias}.id DESC`);
const byId = (alias: string) => Prisma.raw(`left(${alias}.id, 40) USING ~>~`);
const SELECTS: Record<SearchKind, (org: string, where: Sql, order: (alias: string) => Sql) => Sql> = {
  session: (org, where, order) => Prisma.sql`
    SELECT 'session' AS kind, s.id, s.created_at AS at, NULL AS ref, a.name AS title,
      concat_ws(' · ', s.status, CASE WHEN s.user_id <> '' THEN 'user ' || s.user_id END,
        s.message_count || ' messages', s.environment::text) AS detail
    FROM sessions s JOIN agents a ON a.id = s.agent_id
    WHERE s.organization_id = ${org} AND (${where})
    ORDER BY ${order("s")} LIMIT ${TAKE}`,
  message: (org, where, order) => Prisma.sql`
    SELECT 'message' AS kind, m.id, m.created_at AS at, m.session_id AS ref, m.role || ' message' AS title,
      left(m.content, 2000) AS detail
    FROM messages m
    WHERE m.organization_id = ${org} AND (${where})
    ORDER BY ${order("m")} LIMIT ${TAKE}`,
  run: (org, where, order) => Prisma.sql`
    SELECT 'run' AS kind, r.id, r.created_at AS at, NULL AS ref, a.name AS title,
      r.status || ' · ' || r.trigger_type || ' · ' || r.items_total || ' items' AS detail
    FROM runs r JOIN agents a ON a.id = r.agent_id
    WHERE r.organization_id = ${org} AND (${where})
    ORDER BY ${order("r")} LIMIT ${TAKE}`,
  run_item: (org, where, order) => Prisma.sql`
    SELECT 'run_item' AS kind, i.id, i.created_at AS at, i.run_id AS ref,
      'Item ' || i.index || ' of ' || i.run_id AS title, left(i.data::text, 2000) AS detail
    FROM run_items i JOIN runs r ON r.id = i.run_id
    WHERE r.organization_id = ${org} AND (${where})
    ORDER BY ${order("i")} LIMIT ${TAKE}`,
  file: (org, where, order) => Prisma.sql`
    SELECT 'file' AS kind, f.id, f.created_at AS at, f.agent_id AS ref, f.filename AS title,
      f.content_type || ' · ' || f.size_bytes || ' bytes' AS detail
    FROM files f
    WHERE f.organization_id = ${org} AND (${where})
    ORDER BY ${order("f")} LIMIT ${TAKE}`,
  access_key: (org, where, order) => Prisma.sql`
    SELECT 'access_key' AS kind, k.id, k.created_at AS at, NULL AS ref, k.name AS title,
      k.start || '…' || CASE WHEN k.revoked_at IS NULL THEN '' ELSE ' · revoked' END AS detail
    FROM access_keys k
    WHERE k.organization_id = ${org} AND (${where})
    ORDER BY ${order("k")} LIMIT ${TAKE}`,
  agent: (org, where, order) => Prisma.sql`
    SELECT 'agent' AS kind, g.id, g.created_at AS at, NULL AS ref, g.name AS title,
      g.kind::text || CASE WHEN g.archived_at IS NULL THEN '' ELSE ' · archived' END AS detail
    FROM agents g
    WHERE g.organization_id = ${org} AND (${where})
    ORDER BY ${order("g")} LIMIT ${TAKE}`,
  delivery: (org, where, order) => Prisma.sql`
    SELECT 'delivery' AS kind, d.id, d.created_at AS at, NULL AS ref, d.event AS title,
      d.status || ' · ' || d.subject_id || ' · ' || d.url AS detail
    FROM callback_deliveries d
    WHERE d.organization_id = ${org} AND (${where})
    ORDER BY ${order("d")} LIMIT ${TAKE}`,
};

/** How many of the newest rows the first pass of a free-text search reads. */
const RECENT_ROWS = 2000;

/** The first pass of a free-text search: the matches among the organization's newest rows. */
const RECENT: Record<"message" | "run_item", (org: string, where: Sql) => Sql> = {
  message: (org, where) => Prisma.sql`
    SELECT 'message' AS kind, m.id, m.created_at AS at, m.session_id AS ref, m.role || ' message' AS title,
      left(m.content, 2000) AS detail
    FROM (SELECT id, created_at, session_id, role, content FROM messages
          WHERE organization_id = ${org} ORDER BY created_at DESC, id DESC LIMIT ${RECENT_ROWS}) m
    WHERE ${where}
    ORDER BY m.created_at DESC, m.id DESC LIMIT ${TAKE}`,
  run_item: (org, where) => Prisma.sql`
    SELECT 'run_item' AS kind, i.id, i.created_at AS at, i.run_id AS ref,
      'Item ' || i.index || ' of ' || i.run_id AS title, left(i.data::text, 2000) AS detail
    FROM (SELECT i.id, i.created_at, i.run_id, i.index, i.data
          FROM (SELECT id FROM runs WHERE organization_id = ${org} ORDER BY created_at DESC, id DESC LIMIT ${RECENT_ROWS}) r
          JOIN run_items i ON i.run_id = r.id LIMIT ${RECENT_ROWS}) i
    WHERE ${where}
    ORDER BY i.created_at DESC, i.id DESC LIMIT ${TAKE}`,
};

/**
 * The second pass, for a rarer word: every match, found by the full-text index and then sorted. The
 * CTE keeps the planner from walking the time index in order and computing to_tsvector on each row
 * while it waits for ten matches that a rare word never brings (a LIMIT's classic trap).
 */
const ALL_MATCHES: Record<"message" | "run_item", (org: string, where: Sql) => Sql> = {
  message: (org, where) => Prisma.sql`
    WITH hits AS MATERIALIZED (
      SELECT m.id, m.created_at, m.session_id, m.role, m.content FROM messages m
      WHERE m.organization_id = ${org} AND (${where}))
    SELECT 'message' AS kind, m.id, m.created_at AS at, m.session_id AS ref, m.role || ' message' AS title,
      left(m.content, 2000) AS detail
    FROM hits m ORDER BY m.created_at DESC, m.id DESC LIMIT ${TAKE}`,
  run_item: (org, where) => Prisma.sql`
    WITH hits AS MATERIALIZED (
      SELECT i.id, i.created_at, i.run_id, i.index, i.data FROM run_items i JOIN runs r ON r.id = i.run_id
      WHERE r.organization_id = ${org} AND (${where}))
    SELECT 'run_item' AS kind, i.id, i.created_at AS at, i.run_id AS ref,
      'Item ' || i.index || ' of ' || i.run_id AS title, left(i.data::text, 2000) AS detail
    FROM hits i ORDER BY i.created_at DESC, i.id DESC LIMIT ${TAKE}`,
};

/** Each kind's table alias in SELECTS. */
const ALIAS: Record<SearchKind, string> = {
  session: "s",
  message: "m",
  run: "r",
  run_item: "i",
  file: "f",
  access_key: "k",
  agent: "g",
  delivery: "d",
};

/** The rows of an id's table whose id starts with `prefix`: an index range on left(id, 40) (the migration). */
function idStartsWith(kind: SearchKind, prefix: string): Sql {
  const col = Prisma.raw(`${ALIAS[kind]}.id`);
  // The characters after the prefix sort above it: the range ends at the prefix with its last
  // character raised by one (ids are ASCII letters, digits and `_`).
  const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return Prisma.sql`left(${col}, 40) ~>=~ ${prefix} AND left(${col}, 40) ~<~ ${upper}`;
}

/** Reads `q`: a too-long text or a bad field name is refused before any query. */
export function parseSearch(
  raw: string,
):
  | { mode: "id"; kind: SearchKind; whole: boolean; q: string }
  | { mode: "field"; field: string; value: string; q: string }
  | { mode: "text"; q: string } {
  const q = raw.trim();
  if (q.length > SEARCH_MAX_CHARS)
    throw new ApiError("search_query_too_long", `Search for at most ${SEARCH_MAX_CHARS} characters.`, {
      max_chars: SEARCH_MAX_CHARS,
      chars: q.length,
    });
  const id = idShape(q);
  if (id && (id.whole || q.length >= ID_PREFIX_MIN_CHARS)) return { mode: "id", ...id, q };
  const fv = /^([^\s:]+):(.+)$/s.exec(q);
  if (fv && !/^https?$/i.test(fv[1]!)) {
    const field = fv[1]!;
    if (field.length > SEARCH_FIELD_MAX_CHARS || !SEARCH_FIELD_RE.test(field))
      throw new ApiError(
        "invalid_search_field",
        `In field:value the field is letters, digits, "_" and "-" (dots between nested names), at most ${SEARCH_FIELD_MAX_CHARS} characters.`,
        { field: field.slice(0, SEARCH_FIELD_MAX_CHARS) },
      );
    return { mode: "field", field, value: fv[2]!.trim(), q };
  }
  return { mode: "text", q };
}

/**
 * The JSON documents `field:value` contains: {"a": {"b": value}} for `a.b`, the value as text and,
 * when it reads as one, as a number or a boolean (`order_id:1234` finds "1234" and 1234).
 */
export function containments(field: string, value: string): string[] {
  const values: unknown[] = [value];
  if (/^-?\d{1,15}(\.\d{1,15})?$/.test(value)) values.push(Number(value));
  if (value === "true" || value === "false") values.push(value === "true");
  return values.map((v) =>
    JSON.stringify(field.split(".").reduceRight<unknown>((inner, key) => ({ [key]: inner }), v)),
  );
}

function anyContains(column: string, docs: string[]): Sql {
  return Prisma.join(
    docs.map((d) => Prisma.sql`${Prisma.raw(column)} @> ${d}::jsonb`),
    " OR ",
  );
}

/**
 * Runs whose inputs name the end user, for search and the timeline: the `user_id` input is kept in
 * runs.user_id at trigger (a string of at most 256 characters), read on its (organization, user, time)
 * index rather than by JSON containment over every run's inputs.
 */
export const runsOfUser = (userId: string, alias = "r"): Sql =>
  Prisma.sql`${Prisma.raw(`${alias}.user_id`)} = ${userId}`;

export async function search(opts: { organizationId: string; q: string }): Promise<SearchResult> {
  const parsed = parseSearch(opts.q);
  const org = opts.organizationId;
  const words = parsed.q.split(/\s+/).filter(Boolean);

  return boundedQuery(async (query) => {
    const groups = new Map<SearchKind, Row[]>();
    const run = async (kind: SearchKind, where: Sql, order = byTime) => {
      const rows = await query<Row>(SELECTS[kind](org, where, order));
      if (rows.length) groups.set(kind, [...(groups.get(kind) ?? []), ...rows]);
    };
    let exact: SearchResult["exact"] = null;
    let user: SearchResult["user"] = null;

    if (parsed.mode === "id") {
      const { kind } = parsed;
      if (parsed.whole) await run(kind, Prisma.sql`${Prisma.raw(`${ALIAS[kind]}.id`)} = ${parsed.q}`);
      else await run(kind, idStartsWith(kind, parsed.q), byId);
      const rows = groups.get(kind) ?? [];
      if (rows.length === 1) {
        const h = hit(rows[0]!, words);
        exact = { kind, id: h.id, href: h.href };
      }
    } else if (parsed.mode === "field") {
      const docs = containments(parsed.field, parsed.value);
      await run("session", anyContains("s.metadata", docs));
      await run("run", anyContains("r.inputs", docs));
    } else {
      // Any text may be an end user's id: their sessions and the runs naming them, then words.
      await run("session", Prisma.sql`s.user_id = ${parsed.q}`);
      await run("run", runsOfUser(parsed.q));
      if (groups.size) user = { user_id: parsed.q, href: userHref(parsed.q) };
      const tsquery = Prisma.sql`plainto_tsquery('simple', ${parsed.q})`;
      const matches = {
        message: Prisma.sql`to_tsvector('simple'::regconfig, m.content) @@ ${tsquery}`,
        run_item: Prisma.sql`to_tsvector('simple'::regconfig, i.data) @@ ${tsquery}`,
      };
      // A common word matches a large share of the rows, and sorting every match for the newest ten
      // would read them all: the newest RECENT_ROWS rows are read first, on the time index, and the
      // full-text index is asked only when they hold fewer than a page (a rarer word: few matches).
      for (const kind of ["message", "run_item"] as const) {
        const recent = await query<Row>(RECENT[kind](org, matches[kind]));
        const rows = recent.length >= TAKE ? recent : await query<Row>(ALL_MATCHES[kind](org, matches[kind]));
        if (rows.length) groups.set(kind, rows);
      }
    }

    return {
      mode: parsed.mode,
      exact,
      user,
      groups: SEARCH_KINDS.filter((k) => groups.has(k)).map((kind) => {
        const rows = dedupe(groups.get(kind)!);
        return {
          kind,
          label: SEARCH_KIND_LABELS[kind],
          hits: rows.slice(0, SEARCH_GROUP_SIZE).map((r) => hit(r, words)),
          more: rows.length > SEARCH_GROUP_SIZE,
        };
      }),
    };
  });
}

function dedupe(rows: Row[]): Row[] {
  const seen = new Set<string>();
  return rows
    .filter((r) => !seen.has(r.id) && seen.add(r.id))
    .sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1));
}
