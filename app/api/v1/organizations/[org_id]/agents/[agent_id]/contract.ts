import * as ex from "@/lib/openapi/examples";
import { AgentRecord, UpdateAgentBody } from "@/lib/agents/schemas";
import { ADMIN_ERRORS, USER_ERRORS } from "@/lib/openapi/management";
import { IF_MATCH, JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";
import { OrgAgentParams } from "@/lib/validate";

const ETAG_HEADER = {
  ETag: {
    description:
      "The agent's head version (`\"v7\"`: the draft, else a rollout's new version, else the published one): " +
      "`If-Match` of a draft write.",
    schema: { type: "string" },
  },
};

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]",
  auth: "member",
  params: OrgAgentParams,
  responses: { 200: AgentRecord },
  errors: [...USER_ERRORS, "agent_not_found"],
  openapi: () => ({
    operationId: "getAgent",
    summary: "Fetch an agent",
    tag: "Agents",
    description:
      "Archived agents too. `runtime`, `workflow` and `callback_url` are the published version's; the draft is " +
      "`GET .../versions/{draft_version}`.",
    responses: {
      "200": {
        description: "The agent.",
        headers: ETAG_HEADER,
        examples: { agent: { summary: "An agent", value: ex.agentRecord } },
      },
    },
  }),
});

export const PATCH = route({
  method: "PATCH",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]",
  auth: "member",
  params: OrgAgentParams,
  body: UpdateAgentBody,
  admin: true,
  responses: { 200: AgentRecord },
  errors: [
    ...ADMIN_ERRORS,
    ...JSON_BODY_ERRORS,
    "invalid_callback_url",
    "invalid_agent",
    "agent_not_found",
    "draft_conflict",
    "nothing_to_publish",
    "rollout_in_progress",
  ],
  openapi: () => ({
    operationId: "updateAgent",
    summary: "Update an agent",
    tag: "Agents",
    description:
      "Admin only. `name` and `project_id` change the agent at once. `runtime`, `workflow` and `callback_url` " +
      "write the agent's draft, a new version never served to triggers (made from the draft, or from the " +
      "newest published version when there is none: a rollout's new version while one is on); `publish: true` publishes it in the same call. A draft write " +
      "names the version it was made on (`base_version`, or `If-Match` with the agent's ETag); without one it may " +
      "only create the draft. A stale one answers `409 draft_conflict` naming the newer version. The `kind` " +
      "cannot change.",
    parameters: [IF_MATCH],
    bodyExamples: {
      rename: { summary: "Rename", value: { name: "Support bot (EU)" } },
      draft: {
        summary: "Edit the draft made on version 3",
        value: { base_version: 3, runtime: { type: "echo", delay_ms: 50 }, note: "Slower echo" },
      },
      publish: {
        summary: "Edit and publish",
        value: { base_version: 3, runtime: { type: "echo", delay_ms: 0 }, publish: true },
      },
    },
    responses: {
      "200": {
        description: "The agent.",
        headers: ETAG_HEADER,
        examples: {
          agent: { summary: "Renamed", value: { ...ex.agentRecord, name: "Support bot (EU)" } },
          draft: { summary: "A draft written", value: { ...ex.agentRecord, draft_version: 4 } },
        },
      },
    },
  }),
});

export const DELETE = route({
  method: "DELETE",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]",
  auth: "member",
  params: OrgAgentParams,
  admin: true,
  responses: { 200: AgentRecord },
  errors: [...ADMIN_ERRORS, "agent_not_found"],
  openapi: () => ({
    operationId: "archiveAgent",
    summary: "Archive an agent",
    tag: "Agents",
    description:
      "Admin only. The agent takes no new triggers or uploads (`409 agent_archived`); its sessions, messages, " +
      "runs and files stay readable and its runs controllable. Idempotent; cannot be undone.",
    responses: {
      "200": {
        description: "The archived agent.",
        examples: { archived: { summary: "Archived", value: { ...ex.agentRecord, archived_at: ex.EXAMPLE_TIME } } },
      },
    },
  }),
});
