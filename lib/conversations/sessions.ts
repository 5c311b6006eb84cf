// Sessions and messages of a conversational agent (SPEC 4.3-4.6). Only production sessions are
// visible: draft sessions of the dashboard's test console never leave it.
import type { z } from "zod";
import { prisma } from "../db";
import { ApiError } from "../errors";
import type { Agent, Prisma } from "../generated/prisma/client";
import { messageListItem, messageRecord, sessionListItem, sessionRecord } from "./records";
import type { ListMessagesQuery, ListSessionsQuery } from "./schemas";

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
  const { limit, status, since } = opts.query;
  const where: Prisma.SessionWhereInput = {
    agentId: opts.agent.id,
    organizationId: opts.agent.organizationId,
    environment: "production",
    ...(status ? { status } : {}),
    ...(since ? { lastMessageAt: { gt: since } } : {}),
  };
  const db = await prisma();
  const rows = await db.session.findMany({ where, orderBy: [{ lastMessageAt: "desc" }, { id: "desc" }], take: limit });
  return { sessions: rows.map(sessionListItem), limit };
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
  const { limit, offset, role } = opts.query;
  const db = await prisma();
  const rows = await db.message.findMany({
    where: { sessionId: session.id, ...(role ? { role } : {}) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    skip: offset,
    take: limit,
  });
  return { messages: rows.map(messageListItem), limit, offset };
}

export async function getMessage(opts: { agent: Agent; sessionId: string; messageId: string }) {
  assertConversational(opts.agent);
  const session = await loadSession(opts.agent, opts.sessionId);
  const db = await prisma();
  const message = await db.message.findFirst({ where: { id: opts.messageId, sessionId: session.id } });
  if (!message) throw new ApiError("message_not_found", "Message not found in this session.");
  return messageRecord(message);
}
