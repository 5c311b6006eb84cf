import { z } from "zod";
import { CallbackUrl } from "../callbacks/schemas";
import { RuntimeConfig } from "../runtime/schema";
import {
  idString,
  managementPageQuery,
  queryCursor,
  responseId,
  responseNextCursor,
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

export const UpdateAgentBody = z.strictObject({
  name: name.optional(),
  kind: AgentKind.optional(),
  project_id: idString("proj", "project").optional(),
  runtime: RuntimeConfig.optional(),
  workflow: WorkflowDefinition.optional(),
  /** The default `callback_url` of the agent's triggers; null removes it. */
  callback_url: CallbackUrl.nullable().optional(),
});
export type UpdateAgentBody = z.infer<typeof UpdateAgentBody>;

/** The console's agent list: pages of `limit` (capped at 100) after `cursor`, every agent without `limit`. */
export const AgentListQuery = z.object({
  limit: z
    .string()
    .regex(/^\d+$/, "must be a positive integer")
    .transform(Number)
    .pipe(z.number().int().min(1, "must be at least 1"))
    .transform((n) => Math.min(n, 100))
    .optional(),
  cursor: queryCursor,
});

/** The management API's agent list: archived agents are listed only with `include_archived=true`. */
export const ManagementAgentListQuery = z.object({
  include_archived: z
    .enum(["true", "false"], { error: 'must be "true" or "false"' })
    .optional()
    .transform((v) => v === "true"),
  ...managementPageQuery(),
});

// Response shapes of the management API's agents (docs/api.md), for the OpenAPI document.

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
});

/** A page of agents: the management API's list and the console's. */
export const AgentList = z.strictObject({ agents: z.array(AgentRecord), next_cursor: responseNextCursor() });
