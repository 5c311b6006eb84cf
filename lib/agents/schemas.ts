import { z } from "zod";
import { CallbackUrl } from "../callbacks/schemas";
import { RuntimeConfig } from "../runtime/schema";
import {
  idString,
  managementPageQuery,
  ONE_LINE,
  OrgAgentParams,
  responseId,
  responsePageFields,
  responseTimestamp,
} from "../validate";
import { WorkflowDefinition } from "../workflow/schema";

export const AgentKind = z.enum(["conversational", "workflow"]);

const name = z.string().trim().min(1).max(200);

export const CreateAgentBody = z
  .strictObject({
    name,
    kind: AgentKind,
    project_id: idString("proj", "project").optional(),
    runtime: RuntimeConfig,
    workflow: WorkflowDefinition.optional(),
    /** The default `callback_url` of the agent's triggers (a trigger's own wins); null: none. */
    callback_url: CallbackUrl.nullable().optional(),
  })
  .superRefine((a, ctx) => {
    if (a.kind === "workflow" && !a.workflow)
      ctx.addIssue({ code: "custom", path: ["workflow"], message: "a workflow agent needs a workflow definition" });
    if (a.kind === "conversational" && a.workflow)
      ctx.addIssue({ code: "custom", path: ["workflow"], message: "only workflow agents take a workflow definition" });
  });
export type CreateAgentBody = z.infer<typeof CreateAgentBody>;

/** A version number (lib/agents/versions.ts). */
export const VersionNumber = z
  .number()
  .int("must be a version number (an integer from 1)")
  .min(1, "must be a version number (an integer from 1)")
  .max(2_147_483_647);

/** A version's note: one line of text, at most 500 characters. */
const note = z.string().trim().max(500).regex(ONE_LINE, "must be one line without control characters");

export const UpdateAgentBody = z.strictObject({
  name: name.optional(),
  kind: AgentKind.optional(),
  project_id: idString("proj", "project").optional(),
  runtime: RuntimeConfig.optional(),
  workflow: WorkflowDefinition.optional(),
  /** The default `callback_url` of the agent's triggers; null removes it. */
  callback_url: CallbackUrl.nullable().optional(),
  /** The version the edit was made on: the draft read, or the published version when there was none (docs/api.md, Versions). */
  base_version: VersionNumber.optional(),
  /** Publish the draft once the edit is written (at 100 %). */
  publish: z.boolean().optional(),
  /** The note of the draft version this edit writes. */
  note: note.optional(),
});
export type UpdateAgentBody = z.infer<typeof UpdateAgentBody>;

/** The management API's agent list: archived agents are listed only with `include_archived=true`. */
export const ManagementAgentListQuery = z.object({
  include_archived: z
    .enum(["true", "false"], { error: 'must be "true" or "false"' })
    .optional()
    .transform((v) => v === "true")
    .meta({ description: "`true` lists archived agents too (`true` or `false`)." }),
  ...managementPageQuery(),
});

/** POST .../agents/{agent_id}/publish (docs/api.md, Versions); an empty body publishes the draft at 100 %. */
export const PublishBody = z
  .strictObject({
    note: note.optional(),
    /** The share of new sessions and runs the new version serves: below 100 starts a canary rollout. */
    rollout_percent: z.number().int("must be an integer from 1 to 100").min(1).max(100).default(100),
    /** The draft to publish: refused (409 draft_conflict) when the draft is another one by now. */
    version: VersionNumber.optional(),
    /** Alert rules (error_rate, latency_p95) that roll a canary back when they fire on its traffic. */
    guard_rule_ids: z.array(idString("alr", "alert rule")).max(10).optional(),
    /** Answer what publishing would change, change nothing. */
    dry_run: z.boolean().optional(),
    /** The evaluation of this draft the publish follows (docs/api.md, Evaluations): named in the version's note and the audit event. */
    evaluation_id: idString("eval", "evaluation").optional(),
  })
  .refine((b) => !b.guard_rule_ids?.length || b.rollout_percent < 100, {
    path: ["guard_rule_ids"],
    message: "guard rules watch a canary: give a rollout_percent below 100",
  });
export type PublishBody = z.infer<typeof PublishBody>;

/** POST .../agents/{agent_id}/rollout: the canary's new share; 100 completes it. */
export const RolloutBody = z.strictObject({
  percent: z.number().int("must be an integer from 1 to 100").min(1).max(100),
});

/** POST .../versions/{version}/restore; an empty body when the agent has no draft. */
export const RestoreBody = z.strictObject({
  /** The draft the restore replaces (or the published version when there is none). */
  base_version: VersionNumber.optional(),
  note: note.optional(),
});

/** POST .../agents/{agent_id}/rollback; the body is optional. */
export const RollbackBody = z.strictObject({ note: note.optional() });

/** A version in a path: 1 or more. */
export const versionParam = z
  .string()
  .regex(/^[1-9]\d{0,8}$/, "must be a version number (an integer from 1)")
  .transform(Number);

export const VersionParams = OrgAgentParams.extend({
  version: versionParam.meta({ description: "The version number (1 or more).", example: "3" }),
});

export const VersionDiffQuery = z.object({
  to: versionParam.meta({ description: "The version to compare with: the changes lead from `{version}` to it." }),
});

export const VersionListQuery = z.object({ ...managementPageQuery() });

// Response shapes of the management API's agents (docs/api.md), for the OpenAPI document.

export const RolloutRecord = z.strictObject({
  version: z.number().int().meta({ description: "The version being rolled out (the canary)." }),
  percent: z.number().int().meta({ description: "Its share of new sessions and runs, 1-99." }),
  from_version: z.number().int().meta({ description: "The published version, serving the rest." }),
  guard_rule_ids: z.array(z.string()),
  started_at: responseTimestamp(),
  updated_at: responseTimestamp(),
});
export type RolloutRecord = z.infer<typeof RolloutRecord>;

export const VersionState = z.enum(["draft", "published", "rollout", "superseded", "retired", "rolled_back"]);

const actorRecord = z.strictObject({
  type: z.enum(["user", "access_key", "system"]),
  id: z.string().nullable(),
  label: z.string().nullable(),
});

export const VersionListItem = z.strictObject({
  agent_id: responseId("agt"),
  version: z.number().int(),
  state: VersionState.meta({
    description:
      "draft (edits go here, never served), published (serving), rollout (a canary's new version), " +
      "retired (published before), rolled_back (rolled back from), superseded (a draft replaced by a later edit).",
  }),
  traffic_percent: z.number().int().meta({ description: "Its share of new sessions and runs now." }),
  note: z.string().nullable(),
  base_version: z.number().int().nullable(),
  created_by: actorRecord,
  created_at: responseTimestamp(),
  published_at: responseTimestamp().nullable(),
  rolled_back_at: responseTimestamp().nullable(),
});
export type VersionListItem = z.infer<typeof VersionListItem>;

export const VersionRecord = VersionListItem.extend({
  runtime: RuntimeConfig,
  workflow: WorkflowDefinition.nullable(),
  callback_url: z.string().nullable(),
});

export const VersionList = z.strictObject({ versions: z.array(VersionListItem), ...responsePageFields() });

export const VersionChange = z.strictObject({
  path: z.string().meta({ description: "`runtime.model`, `workflow.steps.<step id>`, `callback_url`, ..." }),
  change: z.enum(["added", "removed", "changed", "moved"]),
  from: z.unknown(),
  to: z.unknown(),
});
export type VersionChange = z.infer<typeof VersionChange>;

export const VersionDiff = z.strictObject({
  agent_id: responseId("agt"),
  from_version: z.number().int(),
  to_version: z.number().int(),
  changes: z.array(VersionChange),
});

/** What publishing the draft would change for live traffic (a dry run). */
export const PublishPreview = z.strictObject({
  agent_id: responseId("agt"),
  dry_run: z.literal(true),
  version: z.number().int(),
  published_version: z.number().int(),
  rollout_percent: z.number().int(),
  changes: z.array(VersionChange),
  open_sessions: z.number().int().meta({
    description: "Sessions active in the last 24 hours that keep their version (counted up to 10,000).",
  }),
  runs_in_progress: z.number().int().meta({ description: "Runs not finished, which keep their version." }),
  summary: z.string(),
});
export type PublishPreview = z.infer<typeof PublishPreview>;

export const AgentRecord = z.strictObject({
  agent_id: responseId("agt"),
  organization_id: responseId("org"),
  project_id: responseId("proj"),
  name: z.string(),
  kind: AgentKind,
  runtime: RuntimeConfig,
  workflow: WorkflowDefinition.nullable().meta({ description: "null for conversational agents." }),
  created_at: responseTimestamp(),
  updated_at: responseTimestamp(),
  archived_at: responseTimestamp()
    .nullable()
    .meta({ description: "Set once the agent is archived: it takes no new triggers or uploads." }),
  callback_url: z
    .string()
    .nullable()
    .meta({ description: 'The default callback_url of the agent\'s triggers (docs/api.md "Completion callbacks").' }),
  published_version: z.number().int().meta({
    description:
      "The version serving new sessions and runs (all of them but a rollout's share); `runtime`, `workflow` and `callback_url` are its.",
  }),
  draft_version: z
    .number()
    .int()
    .nullable()
    .meta({ description: "The unpublished draft, never served; null when none." }),
  previous_version: z.number().int().nullable().meta({
    description: "What served before the published version: what a rollback (without a rollout on) makes live again.",
  }),
  rollout: RolloutRecord.nullable().meta({ description: "A canary rollout in progress, or null." }),
});
export type AgentRecord = z.infer<typeof AgentRecord>;

/** A page of agents: the management API's list and the console's. */
export const AgentList = z.strictObject({ agents: z.array(AgentRecord), ...responsePageFields() });

/** One version's figures while a rollout is on (lib/usage/versions.ts). */
export const VersionFiguresRecord = z.strictObject({
  version: z.number().int(),
  role: z.enum(["canary", "published"]),
  traffic_percent: z.number().int(),
  triggers: z.number(),
  replies: z.number(),
  replies_failed: z.number(),
  runs_started: z.number(),
  runs_ended: z.number(),
  runs_failed: z.number(),
  error_rate: z
    .number()
    .nullable()
    .meta({ description: "Failed replies and runs in % of those that ended; null: none ended." }),
  latency_p50_ms: z.number().nullable(),
  latency_p95_ms: z.number().nullable(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  cost: z.number(),
});

/** GET .../agents/{agent_id}/rollout: the rollout and both versions' figures since it started. */
export const RolloutReport = z.strictObject({
  agent_id: responseId("agt"),
  rollout: RolloutRecord.nullable(),
  since: responseTimestamp().nullable(),
  versions: z.array(VersionFiguresRecord),
});
export type RolloutReport = z.infer<typeof RolloutReport>;
