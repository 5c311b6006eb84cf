// Request schemas of the conversational API (SPEC 4.1, 4.3-4.6): the one source of validation
// and types for the trigger body and the session and message queries.
import { z } from "zod";
import { fileIdString, queryLimit, queryOffset } from "../validate";

/** SPEC 4.1: `attachments` holds file reference objects; extra fields of the body are kept. */
export const ConversationTriggerBody = z.looseObject({
  message: z.string().min(1, "must be a non-empty string"),
  session_id: z.string().min(1).optional(),
  user_id: z.string().max(255).optional(),
  attachments: z.array(z.strictObject({ file_id: fileIdString() })).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type ConversationTriggerBody = z.infer<typeof ConversationTriggerBody>;

// An ISO 8601 date or date-time; a date-time without an offset is read as UTC.
const isoTimestamp = z
  .union([z.iso.datetime({ offset: true, local: true }), z.iso.date()])
  .transform((s) => new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) || !s.includes("T") ? s : `${s}Z`))
  .refine((d) => !Number.isNaN(d.getTime()), "must be an ISO 8601 timestamp");

export const SessionLimits = { default: 20, cap: 100 } as const;
export const MessageLimits = { default: 50, cap: 200 } as const;

export const ListSessionsQuery = z.object({
  limit: queryLimit(SessionLimits.default, SessionLimits.cap),
  status: z.string().min(1).max(64).optional(),
  since: isoTimestamp.optional(),
});

export const ListMessagesQuery = z.object({
  limit: queryLimit(MessageLimits.default, MessageLimits.cap),
  offset: queryOffset,
  role: z.enum(["user", "assistant"]).optional(),
});

// Ids in the path are opaque: a malformed one is simply not found (404), never a 400.
export const SessionParams = z.object({ agent_id: z.string(), session_id: z.string() });
export const MessageParams = SessionParams.extend({ message_id: z.string() });

/** Dashboard: the organization's sessions (drafts of the test console included on request). */
export const OrgSessionsQuery = z.object({
  agent_id: z.string().min(1).optional(),
  status: z.string().min(1).max(64).optional(),
  since: isoTimestamp.optional(),
  environment: z.enum(["production", "draft", "all"]).default("all"),
  limit: queryLimit(SessionLimits.default, SessionLimits.cap),
  offset: queryOffset,
});

export const OrgMessagesQuery = z.object({
  limit: queryLimit(100, MessageLimits.cap),
  offset: queryOffset,
});
