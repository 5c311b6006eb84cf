// Live updates (docs/console.md, Live updates): a long poll that answers as soon as something of
// the organization in the asked topics changed after `since`, or after its hold time with nothing.
// Each topic's mark is a few maxima read through indexes (runs by updated_at; sessions by
// last_message_at; messages by created_at and completed_at, of one session when the thread view asks
// with `session_id`; review items by updated_at), checked
// every CHECK_MS while the poll is held. It works the same on PGlite and PostgreSQL (no
// LISTEN/NOTIFY, which PGlite lacks across processes). The cursor is opaque: the marks it saw.
import { prisma } from "../db";
import { ApiError } from "../errors";
import { isShuttingDown } from "../lifecycle";
import { processOnce } from "../process-state";
import { CHANGES_WAIT_MAX, type ChangesAnswer, type LiveTopic } from "./schemas";

const CHECK_MS = 500;
/** Long polls held at once per member in a process: a few tabs, not an unbounded number. */
export const LIVE_POLLS_PER_MEMBER = 6;

type Marks = Partial<Record<LiveTopic, string>>;

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : "-");

const max = async (rows: Promise<{ m: Date | null }[]>) => iso((await rows)[0]?.m);

async function markOf(topic: LiveTopic, org: string, sessionId?: string): Promise<string> {
  const db = await prisma();
  type M = { m: Date | null }[];
  // One session's messages (the thread view): the maxima over that session's rows only, one index row
  // each, by (session_id, created_at, id) and (session_id, completed_at); a change in another session
  // of the organization leaves it.
  const ofSession = (id: string) =>
    db.$queryRaw<{ c: Date | null; d: Date | null }[]>`SELECT max(created_at) AS c, max(completed_at) AS d
      FROM messages WHERE session_id = ${id}`.then(([r]) => `${iso(r?.c)}|${iso(r?.d)}`);
  const runs = () => max(db.$queryRaw<M>`SELECT max(updated_at) AS m FROM runs WHERE organization_id = ${org}`);
  const created = () => max(db.$queryRaw<M>`SELECT max(created_at) AS m FROM messages WHERE organization_id = ${org}`);
  const completed = () =>
    max(db.$queryRaw<M>`SELECT max(completed_at) AS m FROM messages WHERE organization_id = ${org}`);
  const marks: Record<LiveTopic, () => Promise<string>[]> = {
    runs: () => [runs()],
    sessions: () => [
      max(db.$queryRaw<M>`SELECT max(last_message_at) AS m FROM sessions WHERE organization_id = ${org}`),
      completed(),
    ],
    messages: () => (sessionId ? [ofSession(sessionId)] : [created(), completed()]),
    reviews: () => [
      runs(),
      max(
        db.$queryRaw<M>`SELECT max(ri.updated_at) AS m FROM run_items ri JOIN runs r ON r.id = ri.run_id
          WHERE ri.status = 'needs_review' AND r.organization_id = ${org}`,
      ),
    ],
  };
  return (await Promise.all(marks[topic]())).join("|");
}

async function marksOf(topics: LiveTopic[], org: string, sessionId?: string): Promise<Marks> {
  const values = await Promise.all(topics.map((t) => markOf(t, org, sessionId)));
  return Object.fromEntries(topics.map((t, i) => [t, values[i]]));
}

const encode = (m: Marks) => Buffer.from(JSON.stringify(m)).toString("base64url");

function decode(cursor: string): Marks {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      const entries = Object.entries(parsed as Record<string, unknown>);
      if (entries.every(([, v]) => typeof v === "string")) return parsed as Marks;
    }
  } catch {
    // answered below
  }
  throw new ApiError("invalid_request", "since is not a cursor of this feed: pass the cursor of its previous answer.", {
    fields: [{ field: "since", message: "is not a cursor of this feed" }],
  });
}

/** session_not_found, the same answer for a session of another organization as for a missing one. */
async function assertSessionOf(organizationId: string, sessionId: string) {
  const db = await prisma();
  const found = await db.session.findFirst({ where: { id: sessionId, organizationId }, select: { id: true } });
  if (!found) throw new ApiError("session_not_found", "Session not found.");
}

const held = () => processOnce("live_polls", () => new Map<string, number>());

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });

/**
 * Answers `{cursor, changed}`: without `since` at once (the first cursor, nothing changed); else
 * as soon as a topic's mark differs from the one in `since`, or after `wait` seconds with nothing.
 */
export async function waitForChanges(opts: {
  organizationId: string;
  userId: string;
  topics: LiveTopic[];
  since?: string;
  wait?: number;
  /** Read the `messages` topic for this session only: a session of another organization is not found. */
  sessionId?: string;
  signal: AbortSignal;
}): Promise<ChangesAnswer> {
  if (opts.sessionId) await assertSessionOf(opts.organizationId, opts.sessionId);
  const seen = opts.since ? decode(opts.since) : null;
  const now = await marksOf(opts.topics, opts.organizationId, opts.sessionId);
  const changedIn = (m: Marks) => opts.topics.filter((t) => seen !== null && seen[t] !== m[t]);
  if (!seen || changedIn(now).length > 0) return { cursor: encode(now), changed: changedIn(now) };

  const polls = held();
  const mine = polls.get(opts.userId) ?? 0;
  if (mine >= LIVE_POLLS_PER_MEMBER) {
    throw new ApiError("rate_limited", `At most ${LIVE_POLLS_PER_MEMBER} live views at once per member: close a tab.`, {
      limit: LIVE_POLLS_PER_MEMBER,
    });
  }
  polls.set(opts.userId, mine + 1);
  try {
    const deadline = Date.now() + (opts.wait ?? CHANGES_WAIT_MAX) * 1000;
    let marks = now;
    while (Date.now() < deadline && !opts.signal.aborted && !isShuttingDown()) {
      await sleep(Math.min(CHECK_MS, Math.max(0, deadline - Date.now())), opts.signal);
      marks = await marksOf(opts.topics, opts.organizationId, opts.sessionId);
      if (changedIn(marks).length > 0) break;
    }
    return { cursor: encode(marks), changed: changedIn(marks) };
  } finally {
    const left = (polls.get(opts.userId) ?? 1) - 1;
    if (left <= 0) polls.delete(opts.userId);
    else polls.set(opts.userId, left);
  }
}
