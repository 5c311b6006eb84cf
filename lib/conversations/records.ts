// Public shapes of sessions and messages (docs/api.md, Sessions and messages): field names and types exactly.
import type { Message, Session } from "../generated/prisma/client";
import type { z } from "zod";
import type { MessageError } from "./schemas";

export function sessionListItem(s: Session) {
  return {
    session_id: s.id,
    agent_id: s.agentId,
    status: s.status,
    channel: s.channel,
    user_id: s.userId,
    created_at: s.createdAt.toISOString(),
    last_message_at: s.lastMessageAt.toISOString(),
    message_count: s.messageCount,
    total_tokens: s.totalTokens,
  };
}

export function sessionRecord(s: Session) {
  const { total_tokens: _omitted, ...item } = sessionListItem(s);
  return {
    ...item,
    organization_id: s.organizationId,
    project_id: s.projectId,
    token_usage: {
      prompt_tokens: s.promptTokens,
      completion_tokens: s.completionTokens,
      total_tokens: s.totalTokens,
    },
    cost: s.cost,
    metadata: (s.metadata ?? {}) as Record<string, unknown>,
  };
}

/** null until the runtime reported usage (user messages, replies still processing). */
export function tokenUsage(m: Message) {
  if (m.role !== "assistant" || m.totalTokens === null) return null;
  return {
    prompt_tokens: m.promptTokens ?? 0,
    completion_tokens: m.completionTokens ?? 0,
    total_tokens: m.totalTokens,
  };
}

export function messageListItem(m: Message) {
  return {
    message_id: m.id,
    role: m.role as "user" | "assistant",
    status: m.status as "processing" | "completed" | "error",
    content: m.content,
    created_at: m.createdAt.toISOString(),
    model: m.role === "assistant" ? m.model : null,
    token_usage: tokenUsage(m),
    agent_version: m.role === "assistant" ? (m.agentVersion ?? null) : null,
  };
}

export function messageRecord(m: Message) {
  return {
    ...messageListItem(m),
    session_id: m.sessionId,
    agent_id: m.agentId,
    organization_id: m.organizationId,
    project_id: m.projectId,
    cost: m.cost,
    processing_time_ms: m.processingTimeMs,
    error: (m.error ?? null) as z.infer<typeof MessageError> | null,
  };
}
