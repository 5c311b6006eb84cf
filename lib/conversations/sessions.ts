// Sessions and messages of a conversational agent. Only production sessions are
// visible in the public API: draft sessions of the console's test console never leave it. The
// console reads across the organization's agents, drafts included (the `Org` functions).
import type { z } from "zod";
import { prisma } from "../db";
import { ApiError } from "../errors";
import type { Agent, Prisma } from "../generated/prisma/client";
import { messageListItem, messageRecord, sessionListItem, sessionRecord } from "./records";
import type { ListMessagesQuery, ListSessionsQuery, OrgMessagePage, OrgSessionPage, OrgSessionRecord } from "./schemas";
import { findVisibleMessage } from "./store";
import { waitForReply } from "./waiters";
import { afterCursor, instantRange, pageOf } from "../pagination";
import { assertVersionFilter } from "../validate";

/** Session routes exist for conversational agents only; checked before any lookup. */
export function assertConversational(agent: Agent) {
  if (agent.kind !== "conversational") {
    throw new ApiError("runtime_not_applicable", "Session routes apply to conversational agents only.", {
      agent_kind: agent.kind,
    });
  }
}

const sessionNotFound = () => new ApiError("session_not_found", "Session not found.");

/** The visible session `sessionId` of `agent`, or session_not_found (also for other agents' sessions). */
export async function loadSession(agent: Agent, sessionId: string) {
  const db = await prisma();
  const session = await db.session.findFirst({
    where: { id: sessionId, agentId: agent.id, organizationId: agent.organizationId, environment: "production" },
  });
  if (!session) throw sessionNotFound();
  return session;
}

export async function listSessions(opts: { agent: Agent; query: z.output<typeof ListSessionsQuery> }) {
  assertConversational(opts.agent);
  const { limit, status, since, cursor } = opts.query;
  // On the index (agent, environment, [status,] last activity, id): the cursor starts its range.
  const where: Prisma.SessionWhereInput = {
    AND: [
      {
        agentId: opts.agent.id,
        organizationId: opts.agent.organizationId,
        environment: "production",
        ...(status ? { status } : {}),
        ...(since ? { lastMessageAt: { gt: since } } : {}),
      },
      afterCursor("lastMessageAt", cursor),
    ],
  };
  const db = await prisma();
  const rows = await db.session.findMany({
    where,
    orderBy: [{ lastMessageAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const page = pageOf(rows, limit, (s) => s.lastMessageAt);
  return { sessions: page.rows.map(sessionListItem), limit, next_cursor: page.next_cursor };
}

export async function getSession(opts: { agent: Agent; sessionId: string }) {
  assertConversational(opts.agent);
  return sessionRecord(await loadSession(opts.agent, opts.sessionId));
}

export async function listMessages(opts: {
  agent: Agent;
  sessionId: string;
  query: z.output<typeof ListMessagesQuery>;
}) {
  assertConversational(opts.agent);
  const session = await loadSession(opts.agent, opts.sessionId);
  // `offset` is 0 when a cursor is given (ListMessagesQuery); `next_cursor` continues after either.
  const { limit, offset, role, cursor } = opts.query;
  const db = await prisma();
  const rows = await db.message.findMany({
    where: { AND: [{ sessionId: session.id, ...(role ? { role } : {}) }, afterCursor("createdAt", cursor, "asc")] },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    skip: offset,
    take: limit + 1,
  });
  const page = pageOf(rows, limit, (m) => m.createdAt);
  return { messages: page.rows.map(messageListItem), limit, offset, next_cursor: page.next_cursor };
}

/**
 * One message. With `waitMs`, a reply still processing is answered as soon as it ends, or when the
 * wait runs out (long polling: `Prefer: wait=N`).
 */
export async function getMessage(opts: { agent: Agent; sessionId: string; messageId: string; waitMs?: number }) {
  assertConversational(opts.agent);
  // One query on the polling path: the message, within a visible session of this agent.
  const find = () =>
    findVisibleMessage({
      messageId: opts.messageId,
      sessionId: opts.sessionId,
      agentId: opts.agent.id,
      organizationId: opts.agent.organizationId,
    });
  let message = await find();
  if (!message) {
    await loadSession(opts.agent, opts.sessionId); // session_not_found when that is what is missing
    throw new ApiError("message_not_found", "Message not found in this session.");
  }
  if (message.status === "processing" && opts.waitMs) {
    if (await waitForReply(message.id, opts.waitMs)) message = (await find()) ?? message;
  }
  return messageRecord(message);
}

export type EnvironmentFilter = "production" | "draft" | "all";

/** Console: the organization's sessions, most recently active first, drafts marked. */
export async function listOrgSessions(opts: {
  organizationId: string;
  agentId?: string;
  status?: string;
  userId?: string;
  since?: Date;
  from?: Date;
  to?: Date;
  environment: EnvironmentFilter;
  agentVersion?: number;
  limit: number;
  cursor?: string;
}): Promise<z.output<typeof OrgSessionPage>> {
  assertVersionFilter({ agent_id: opts.agentId, agent_version: opts.agentVersion });
  const where: Prisma.SessionWhereInput = {
    AND: [
      {
        organizationId: opts.organizationId,
        ...(opts.agentId ? { agentId: opts.agentId } : {}),
        ...(opts.status ? { status: opts.status } : {}),
        ...(opts.userId ? { userId: opts.userId } : {}),
        ...(opts.environment !== "all" ? { environment: opts.environment } : {}),
        ...(opts.agentVersion ? { agentVersion: opts.agentVersion } : {}),
      },
      opts.since ? { lastMessageAt: { gt: opts.since } } : {},
      instantRange("lastMessageAt", opts),
      afterCursor("lastMessageAt", opts.cursor),
    ],
  };
  const db = await prisma();
  const rows = await db.session.findMany({
    where,
    include: { agent: { select: { name: true } } },
    orderBy: [{ lastMessageAt: "desc" }, { id: "desc" }],
    take: opts.limit + 1,
  });
  const page = pageOf(rows, opts.limit, (s) => s.lastMessageAt);
  return {
    sessions: page.rows.map((s) => ({
      ...sessionListItem(s),
      agent_name: s.agent.name,
      environment: s.environment,
      agent_version: s.agentVersion ?? null,
    })),
    has_more: page.has_more,
    next_cursor: page.next_cursor,
  };
}

/** Console: one session of the organization (draft or production) with every message field. */
export async function getOrgSession(opts: {
  organizationId: string;
  sessionId: string;
}): Promise<z.output<typeof OrgSessionRecord>> {
  const db = await prisma();
  const session = await db.session.findFirst({
    where: { id: opts.sessionId, organizationId: opts.organizationId },
    include: { agent: { select: { name: true } } },
  });
  if (!session) throw sessionNotFound();
  return {
    ...sessionRecord(session),
    agent_name: session.agent.name,
    environment: session.environment,
    agent_version: session.agentVersion ?? null,
  };
}

export async function listOrgMessages(opts: {
  organizationId: string;
  sessionId: string;
  limit: number;
  cursor?: string;
}): Promise<z.output<typeof OrgMessagePage>> {
  await getOrgSession(opts);
  const db = await prisma();
  const rows = await db.message.findMany({
    where: { AND: [{ sessionId: opts.sessionId }, afterCursor("createdAt", opts.cursor, "asc")] },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: opts.limit + 1,
  });
  const page = pageOf(rows, opts.limit, (m) => m.createdAt);
  return { messages: page.rows.map(messageRecord), has_more: page.has_more, next_cursor: page.next_cursor };
}
