// Request schemas of the conversational API (docs/api.md, Trigger; docs/api.md, Sessions and messages): the one source of validation
// and types for the trigger body and the session and message queries.
import { z } from "zod";
import { EXAMPLE_ID } from "../id-format";
import { CallbackUrl } from "../callbacks/schemas";
import {
  AgentParams,
  fileIdString,
  idString,
  isStorableInstant,
  listFilterFields,
  OrgParams,
  queryCursor,
  queryLimit,
  queryOffset,
  queryUserId,
  queryVersion,
  responseId,
  responseNextCursor,
  responsePageFields,
  responseTimestamp,
  STORABLE_INSTANT_RULE,
} from "../validate";

/** `attachments` holds file reference objects; extra fields of the body are kept. */
export const ConversationTriggerBody = z.looseObject({
  message: z.string().min(1, "must be a non-empty string"),
  session_id: z.string().min(1).optional(),
  user_id: z.string().max(255).optional(),
  attachments: z.array(z.strictObject({ file_id: fileIdString() })).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  /** Checked before this schema (400 invalid_callback_url); here for the OpenAPI document. */
  callback_url: CallbackUrl.nullable().optional(),
  /** Checked before this schema (400 invalid_agent_version); here for the OpenAPI document. */
  agent_version: z
    .number()
    .int()
    .min(1)
    .optional()
    .meta({
      description:
        "Serve this trigger with exactly this version of the agent (one that is or was published); a session " +
        "otherwise keeps the version it started with (docs/api.md, Versions).",
    }),
});
export type ConversationTriggerBody = z.infer<typeof ConversationTriggerBody>;

// An ISO 8601 date or date-time; a date-time without an offset is read as UTC.
const isoTimestamp = z
  .union([z.iso.datetime({ offset: true, local: true }), z.iso.date()])
  .transform((s) => new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) || !s.includes("T") ? s : `${s}Z`))
  .refine((d) => !Number.isNaN(d.getTime()), "must be an ISO 8601 timestamp")
  .refine((d) => isStorableInstant(d.getTime()), STORABLE_INSTANT_RULE);

export const SessionLimits = { default: 20, cap: 100 } as const;
export const MessageLimits = { default: 50, cap: 200 } as const;

export const ListSessionsQuery = z.object({
  limit: queryLimit(SessionLimits.default, SessionLimits.cap),
  status: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: "Only sessions with this status (for example `active`)." }),
  since: isoTimestamp.optional().meta({
    description: "Only sessions with activity after this time (ISO 8601 date or date-time; without an offset, UTC).",
  }),
  cursor: queryCursor,
});

/** A cursor continues after a row, an offset skips rows: one or the other (docs/api.md, Paging). */
export const ListMessagesQuery = z
  .object({
    limit: queryLimit(MessageLimits.default, MessageLimits.cap),
    offset: queryOffset.meta({ description: "Messages to skip (default 0)." }),
    role: z.enum(["user", "assistant"]).optional().meta({ description: "Only `user` or only `assistant` messages." }),
    cursor: queryCursor,
  })
  .refine((q) => !q.cursor || q.offset === 0, {
    path: ["offset"],
    message: "must be absent or 0 when cursor is given",
  });

// Ids in the path are opaque: a malformed one is simply not found (404), never a 400.
export const SessionParams = AgentParams.extend({
  session_id: z.string().meta({ description: "A session of this agent (`sess_...`).", example: EXAMPLE_ID.session }),
});
export const MessageParams = SessionParams.extend({
  message_id: z.string().meta({ description: "A message of this session (`msg_...`).", example: EXAMPLE_ID.reply }),
});
/** GET /api/v1/organizations/{org_id}/sessions/{session_id} (and its messages). */
export const OrgSessionParams = OrgParams.extend({
  session_id: z.string().meta({
    description: "A session of any agent of the organization (`sess_...`).",
    example: EXAMPLE_ID.session,
  }),
});

/** Console: the organization's sessions (drafts of the test console included on request). */
/** The console's sessions list filters (docs/console.md, "List filters"): also a saved view's. */
export const OrgSessionsFilters = z.object({
  ...listFilterFields({
    from: "Only sessions active at or after this instant (their last message; RFC 3339, or a date).",
    to: "Only sessions last active before this instant (RFC 3339, or a date: through its end, UTC).",
  }),
  agent_id: idString("agt", "agent").optional().meta({ description: "Only this agent's sessions (`agt_...`)." }),
  status: z.enum(["active", "closed"]).optional().meta({ description: "`active` or `closed`." }),
  user_id: queryUserId.optional().meta({ description: "Only this end user's sessions (the trigger's `user_id`)." }),
  since: isoTimestamp.optional().meta({ description: "Only sessions with a message after this instant (RFC 3339)." }),
  environment: z
    .enum(["production", "draft", "all"])
    .default("all")
    .meta({ description: "`production` (triggers), `draft` (the test console) or `all` (the default)." }),
  agent_version: queryVersion
    .optional()
    .meta({ description: "With `agent_id`: the sessions that started with this version of it." }),
});

export const OrgSessionsQuery = OrgSessionsFilters.extend({
  limit: queryLimit(SessionLimits.default, SessionLimits.cap),
  cursor: queryCursor,
});

export const OrgMessagesQuery = z.object({
  limit: queryLimit(100, MessageLimits.cap),
  cursor: queryCursor,
});

// Response shapes (docs/api.md, Conversational agents): the records of records.ts and the
// trigger's answers, for the OpenAPI document (lib/openapi) and the tests that check real
// answers against it.

export const TokenUsage = z.strictObject({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});
export type TokenUsage = z.infer<typeof TokenUsage>;

export const SessionListItem = z.strictObject({
  session_id: responseId("sess"),
  agent_id: responseId("agt"),
  status: z.string().meta({ description: "For example `active` or `closed`." }),
  channel: z.string().meta({ description: "For example `webhook`." }),
  user_id: z.string().meta({ description: "The caller's end user (empty when none was given)." }),
  created_at: responseTimestamp(),
  last_message_at: responseTimestamp(),
  message_count: z.number().int(),
  total_tokens: z.number().int(),
});

export const SessionRecord = SessionListItem.omit({ total_tokens: true }).extend({
  organization_id: responseId("org"),
  project_id: responseId("proj"),
  token_usage: TokenUsage,
  cost: z.number(),
  metadata: z.record(z.string(), z.unknown()).meta({ description: "Custom metadata attached by the agent." }),
});

export const SessionList = z.strictObject({
  sessions: z.array(SessionListItem),
  limit: z.number().int(),
  next_cursor: responseNextCursor(),
});

export const MessageStatus = z.enum(["processing", "completed", "error"]);

export const MessageListItem = z.strictObject({
  message_id: responseId("msg"),
  role: z.enum(["user", "assistant"]),
  status: MessageStatus,
  content: z.string(),
  created_at: responseTimestamp(),
  model: z.string().nullable().meta({ description: "null for user messages." }),
  token_usage: TokenUsage.nullable().meta({ description: "null for user messages and replies still processing." }),
  agent_version: z.number().int().nullable().meta({
    description: "The agent version that produced the reply; null for user messages (docs/api.md, Versions).",
  }),
});

export const MessageError = z.looseObject({
  code: z.literal("message_processing_failed"),
  message: z.string(),
  reason: z
    .enum(["upstream_timeout", "upstream_error"])
    .optional()
    .meta({
      description:
        "Why the reply failed: `upstream_timeout` when its last attempt ended by the runtime's time limit " +
        "(the sync trigger answered `502 upstream_timeout`), `upstream_error` otherwise. Absent on replies " +
        "that failed before it was recorded.",
    }),
});

export const MessageRecord = MessageListItem.extend({
  session_id: responseId("sess"),
  agent_id: responseId("agt"),
  organization_id: responseId("org"),
  project_id: responseId("proj"),
  cost: z.number(),
  processing_time_ms: z.number().int(),
  error: MessageError.nullable(),
});

export const MessageList = z.strictObject({
  messages: z.array(MessageListItem),
  limit: z.number().int(),
  offset: z.number().int(),
  next_cursor: responseNextCursor(),
});

const triggerIds = {
  success: z.literal(true),
  session_id: responseId("sess"),
  message_id: responseId("msg").meta({ description: "The assistant message (the reply): poll it by this id." }),
  agent_id: responseId("agt"),
  organization_id: responseId("org"),
  project_id: responseId("proj"),
  agent_version: z
    .number()
    .int()
    .meta({ description: "The agent version that produces the reply (docs/api.md, Versions)." }),
};

/** The synchronous trigger's answer (200): the reply. */
export const ConversationReply = z.strictObject({
  ...triggerIds,
  status: z.literal("completed"),
  response: z.string().meta({ description: "The reply text." }),
  files: z.array(z.unknown()),
  token_usage: TokenUsage,
  processing_time: z.number().meta({ description: "Seconds." }),
  timestamp: responseTimestamp(),
});

/** `Prefer: respond-async` (202): accepted; poll the message. */
export const ConversationAccepted = z.strictObject({
  ...triggerIds,
  status: z.literal("processing"),
  timestamp: responseTimestamp(),
});

// Answers of the organization API's sessions across agents and the test console's chat, typed for the
// console's calls (components/console/use-api.ts).

export const Environment = z.enum(["production", "draft"]);
/** The version a console session started with (null: before versions). */
const sessionVersion = { agent_version: z.number().int().nullable() };
export const OrgSessionListItem = SessionListItem.extend({
  agent_name: z.string(),
  environment: Environment,
  ...sessionVersion,
});
export type OrgSessionListItem = z.infer<typeof OrgSessionListItem>;
export const OrgSessionPage = z.strictObject({
  sessions: z.array(OrgSessionListItem),
  ...responsePageFields(),
});
export const OrgSessionRecord = SessionRecord.extend({
  agent_name: z.string(),
  environment: Environment,
  ...sessionVersion,
});
export type OrgSessionRecord = z.infer<typeof OrgSessionRecord>;

export const OrgMessageRecord = MessageListItem.extend({
  session_id: responseId("sess"),
  agent_id: responseId("agt"),
  organization_id: responseId("org"),
  project_id: responseId("proj"),
  cost: z.number().nullable(),
  processing_time_ms: z.number().int().nullable(),
  error: MessageError.nullable(),
});
export type OrgMessageRecord = z.infer<typeof OrgMessageRecord>;
export const OrgMessagePage = z.strictObject({
  messages: z.array(OrgMessageRecord),
  ...responsePageFields(),
});

/** The test console's reply: the trigger's answer with what the reply cost and which model made it. */
export const ChatTestReply = ConversationReply.extend({ cost: z.number(), model: z.string().nullable() });
export type ChatTestReply = z.infer<typeof ChatTestReply>;
