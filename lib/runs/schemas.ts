// Request shapes of the run routes (docs/workflows.md) and the approvals API.
import { z } from "zod";
import { EXAMPLE_ID } from "../id-format";
import { CallbackUrl } from "../callbacks/schemas";
import {
  AgentParams,
  idString,
  JsonObject,
  listFilterFields,
  OrgParams,
  queryBoolean,
  queryCursor,
  queryLimit,
  queryUserId,
  queryVersion,
  responseId,
  responsePageFields,
  responseTimestamp,
} from "../validate";
import { RUN_STATUSES } from "./statuses";

export const RunParams = AgentParams.extend({
  run_id: z.string().meta({ description: "A run of this agent (`run_...`).", example: EXAMPLE_ID.run }),
});

/** Values as the OpenAPI document lists them: `a`, `b`. */
const listed = (values: readonly string[]) => values.map((v) => `\`${v}\``).join(", ");

export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;

/** Other query parameters are ignored (docs/workflows.md); status is checked by the service (invalid_status). */
export const ListRunsQuery = z.object({
  limit: queryLimit(LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX),
  status: z
    .string()
    .optional()
    .meta({ description: `Only runs in this state: one of ${listed(RUN_STATUSES)} (else \`400 invalid_status\`).` }),
  cursor: queryCursor,
});

/** The list of runs is a bare array: its next page's cursor is this response header (docs/api.md, Paging). */
export const NEXT_CURSOR_HEADER = "Next-Cursor";

export const ControlQuery = z.object({
  triggered_by: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: "An attribution label recorded in the run's audit trail." }),
});

export const RESOLUTIONS = ["approved", "rejected", "modified"] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** resolution is checked by the service so that an unknown value is 400 invalid_resolution. */
export const ResolveBody = z
  .object({
    exception_id: z.string().min(1),
    resolution: z.string().meta({ enum: [...RESOLUTIONS] }),
    modified_data: z.unknown().optional(),
    reason: z.string().trim().min(1).max(1000).optional().meta({
      description:
        "Why: stored with the decision and shown with it (optional here; the console asks for one on reject).",
    }),
  })
  // What the service checks (lib/runs/approvals.ts), stated for clients: `modified` carries the data.
  .meta({
    if: { properties: { resolution: { const: "modified" } }, required: ["resolution"] },
    then: { properties: { modified_data: {} }, required: ["modified_data"] },
  });

/** Which approvals the listing answers: the open ones (the default, as before) or those already decided. */
export const ApprovalsQuery = z.object({
  status: z.enum(["open", "resolved"]).default("open").meta({
    description: "`open` (the default): the items waiting for a person; `resolved`: the decided ones.",
  }),
});

/** POST /api/workflows/{agent_id}/trigger; other top-level keys are kept so that inputs sent
 *  without the payload wrapper can be named in the error (lib/workflow/trigger.ts aliasInputs). */
export const WorkflowTriggerBody = z.looseObject({
  payload: z.record(z.string(), z.unknown()).optional(),
  variables: z.record(z.string(), z.unknown()).default({}),
  callback_url: CallbackUrl.nullable().optional(),
  /** Checked before this schema (400 invalid_agent_version); here for the OpenAPI document. */
  agent_version: z.number().int().min(1).optional().meta({
    description: "Run with exactly this version of the agent (one that is or was published; docs/api.md, Versions).",
  }),
});
export type WorkflowTriggerBody = z.infer<typeof WorkflowTriggerBody>;

/** Console: the organization's runs; status is checked by the service (invalid_status). */
/** The console's runs list filters (docs/console.md, "List filters"): also a saved view's. */
export const OrgRunsFilters = z.object({
  ...listFilterFields({
    from: "Only runs created at or after this instant (RFC 3339, or a date).",
    to: "Only runs created before this instant (RFC 3339, or a date: through its end, UTC).",
  }),
  agent_id: idString("agt", "agent").optional().meta({ description: "Only this agent's runs (`agt_...`)." }),
  status: z
    .enum(RUN_STATUSES)
    .optional()
    .meta({ description: `Only runs in this state: ${listed(RUN_STATUSES)}.` }),
  user_id: queryUserId.optional().meta({ description: "Only runs whose `user_id` input is this value." }),
  has_error: queryBoolean.optional().meta({ description: "`true`: only failed runs; `false`: the others." }),
  agent_version: queryVersion.optional().meta({ description: "With `agent_id`: only the runs of this version of it." }),
});

export const OrgRunsQuery = OrgRunsFilters.extend({
  limit: queryLimit(LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX),
  cursor: queryCursor,
});

export const ITEM_STATUS_VALUES = ["pending", "completed", "failed", "needs_review", "skipped"] as const;

export const RunItemsQuery = z.object({
  status: z
    .string()
    .optional()
    .meta({ description: `Only items in this state: ${listed(ITEM_STATUS_VALUES)} (else \`400 invalid_status\`).` }),
  limit: queryLimit(50, 200),
  cursor: queryCursor,
});

export const OrgRunParams = OrgParams.extend({
  run_id: z
    .string()
    .meta({ description: "A run of any agent of the organization (`run_...`).", example: EXAMPLE_ID.run }),
});

/** The test console's run: its inputs, and the version to try (the draft too: docs/console.md, Versions). */
export const StartRunBody = z.strictObject({
  inputs: JsonObject.meta({ description: "The workflow's input fields, as a trigger's body holds them." }),
  agent_version: z
    .unknown()
    .optional()
    .meta({
      description:
        "Run exactly this version: a version number, published (current or earlier) or the draft. Anything " +
        "else is `400 invalid_agent_version`.",
    }),
});

/** A finished run started again: its inputs, as given or edited (docs/console.md, Runs). */
export const RerunBody = z.strictObject({ inputs: JsonObject });

// Response shapes (docs/workflows.md, Run fields): the records of record.ts, the trigger's and
// the approvals' answers, for the OpenAPI document (lib/openapi) and the tests that check real
// answers against it.

export const RunStatus = z.enum(RUN_STATUSES);

export const RunListItem = z.strictObject({
  run_id: responseId("run"),
  agent_id: responseId("agt"),
  status: RunStatus,
  progress_percent: z.number().min(0).max(100),
  started_at: responseTimestamp().nullable().meta({ description: "null until the engine starts the run." }),
  completed_at: responseTimestamp().nullable().meta({ description: "null until the run ends." }),
  duration_seconds: z.number().min(0),
  trigger_type: z.string().meta({ description: "For example `event`." }),
  error: z.string().nullable().meta({ description: "null, or a human-readable reason the run failed." }),
  agent_version: z.number().int().nullable().meta({
    description:
      "The agent version whose definition the run uses for its whole life (null: a run from before versions).",
  }),
  summary: z.strictObject({
    total_processed: z.number().int(),
    successful: z.number().int(),
    failed: z.number().int(),
    exceptions: z.number().int(),
    skipped: z.number().int(),
  }),
  item_counts: z.strictObject({
    completed: z.number().int(),
    failed: z.number().int(),
    needs_review: z.number().int(),
    total: z.number().int(),
  }),
});

export const OutputFile = z.strictObject({
  filename: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  url: z.url().meta({ description: "Signed download URL, valid for 15 minutes after the GET that returned it." }),
  url_expires_at: responseTimestamp(),
});

export const RunEvent = z.strictObject({
  action: z.string().meta({ description: "The move: `pause`, `resume`, `cancel`, `retry`, `start`, `finish`, ..." }),
  from: RunStatus.nullable(),
  to: RunStatus,
  actor: z.string(),
  triggered_by: z.string().nullable(),
  at: responseTimestamp(),
});

export const RunRecord = RunListItem.extend({
  output_files: z.array(OutputFile),
  events: z.array(RunEvent).meta({ description: "The run's audit trail, oldest first." }),
});

export const RunList = z.array(RunListItem);

/** POST /api/agents/webhook/{agent_id} for a workflow agent (202). */
export const RunAccepted = z.strictObject({
  run_id: responseId("run"),
  status: z.literal("pending"),
  agent_id: responseId("agt"),
  agent_version: z.number().int().meta({ description: "The agent version the run uses (docs/api.md, Versions)." }),
});

/** POST /api/workflows/{agent_id}/trigger (202). */
export const WorkflowRunAccepted = z.strictObject({ run_id: responseId("run"), status: z.literal("triggered") });

export const Approval = z.strictObject({
  exception_id: responseId("exc"),
  step_id: z.string().nullable(),
  item_id: responseId("item"),
  data: z.unknown().meta({ description: "The item as the step saw it." }),
  error: z.string().nullable(),
  requires_human_review: z.literal(true),
  blocking: z.boolean(),
  resolution: z.enum(RESOLUTIONS).nullable().meta({ description: "The decision; null while the approval is open." }),
  resolved_by: z
    .string()
    .nullable()
    .meta({ description: "Who decided: a member's email, or the id of the Access Key (`key_...`); null while open." }),
  resolved_at: responseTimestamp().nullable(),
  reason: z.string().nullable().meta({ description: "The reason given with the decision, if any." }),
});

export const ApprovalList = z.array(Approval);

export const ResolveResult = z.strictObject({
  exception_id: z.string(),
  resolution: z.enum(RESOLUTIONS),
  all_resolved: z.boolean(),
  resumed: z.boolean().meta({ description: "The run went back to running because this was its last open approval." }),
  resolved_by: z.string().nullable(),
  resolved_at: responseTimestamp(),
  reason: z.string().nullable(),
});
export type ResolveResult = z.infer<typeof ResolveResult>;

// Answers of the organization API's runs across agents (app/api/v1/organizations/[org_id]/runs), typed
// for the console's calls too (components/console/use-api.ts).

export const CONTROL_VALUES = ["pause", "resume", "retry", "cancel"] as const;

export const OrgRunListItem = RunListItem.extend({ agent_name: z.string(), created_at: responseTimestamp() });
export type OrgRunListItem = z.infer<typeof OrgRunListItem>;
export const OrgRunPage = z.strictObject({
  runs: z.array(OrgRunListItem),
  ...responsePageFields(),
});

export const OrgRunDetail = RunRecord.extend({
  agent_name: z.string(),
  created_at: responseTimestamp(),
  inputs: z.unknown(),
  allowed_actions: z.array(z.enum(CONTROL_VALUES)),
  rerun_of: z.string().nullable().meta({ description: "The finished run this one was started again from." }),
  reruns: z.array(z.string()).meta({ description: "The runs started again from this one, newest first (at most 20)." }),
});
export type OrgRunDetail = z.infer<typeof OrgRunDetail>;

/** One step an item reached, on one attempt (docs/workflows.md, "Step timeline"). */
export const TimelineEntry = z.strictObject({
  step_id: z.string(),
  type: z.enum(["transform", "fail", "review", "skip", "http", "llm", "wait"]),
  attempt: z
    .number()
    .int()
    .min(1)
    .meta({ description: "1 the first time; more after a retry, an approval or a handover." }),
  started_at: responseTimestamp(),
  duration_ms: z
    .number()
    .int()
    .min(0)
    .nullable()
    .meta({ description: "Measured for http, llm and wait calls; null for expression steps." }),
  outcome: z.enum(["completed", "not_applied", "skipped", "failed", "needs_review"]),
  error: z.string().nullable(),
});

export const RunItemRecord = z.strictObject({
  item_id: z.string(),
  index: z.number().int(),
  status: z.string(),
  step_id: z.string().nullable(),
  data: z.unknown(),
  result: z.unknown(),
  error: z.string().nullable(),
  exception: z.boolean(),
  resolution: z.string().nullable(),
  updated_at: z.string(),
  /** The item's way through the steps, in order: empty before its first step, or for an item processed before timelines were kept. */
  timeline: z.array(TimelineEntry),
});
export type RunItemRecord = z.infer<typeof RunItemRecord>;
export const RunItemPage = z.strictObject({
  items: z.array(RunItemRecord),
  ...responsePageFields(),
});

/** An approval with its item's index (a member names items by it) and its claim. */
export const MemberApproval = Approval.extend({
  index: z.number().int().nullable(),
  /** The member deciding it in the console, while their claim lasts (docs/console.md, Reviews). */
  claimed_by: z.string().nullable(),
  claimed_until: responseTimestamp().nullable(),
  /** Edit and approve: the fields the edit changed. */
  diff: z.array(z.strictObject({ path: z.string(), before: z.unknown(), after: z.unknown() })).nullable(),
});
export type MemberApproval = z.infer<typeof MemberApproval>;
export const MemberApprovalList = z.strictObject({
  approvals: z.array(MemberApproval),
  /** The run's latest decisions, newest first: its review trail. */
  decisions: z.array(MemberApproval),
});

/** A member's decision: a reject needs a reason; an item another member claimed needs take_over. */
export const MemberResolveBody = ResolveBody.extend({ take_over: z.boolean().default(false) });
