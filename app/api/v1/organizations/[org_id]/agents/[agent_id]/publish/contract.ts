import * as ex from "@/lib/openapi/examples";
import { AgentRecord, PublishBody, PublishPreview } from "@/lib/agents/schemas";
import { ADMIN_ERRORS } from "@/lib/openapi/management";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";
import { OrgAgentParams } from "@/lib/validate";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/publish",
  auth: "member",
  params: OrgAgentParams,
  admin: true,
  body: PublishBody,
  bodyOptional: true,
  responses: { 200: AgentRecord.or(PublishPreview) },
  errors: [
    ...ADMIN_ERRORS,
    ...JSON_BODY_ERRORS,
    "invalid_agent",
    "agent_not_found",
    "nothing_to_publish",
    "rollout_in_progress",
    "draft_conflict",
  ],
  openapi: () => ({
    operationId: "publishAgentDraft",
    summary: "Publish the draft",
    tag: "Agent versions",
    description:
      "Admin only. The draft becomes live: at `rollout_percent` 100 (the default) for every new session and run " +
      "at once; below 100, for that share of them (a canary rollout: each end user, else each session or run, is " +
      "placed by a stable hash, so raising the share keeps everyone who had the new version on it). Open sessions " +
      "and unfinished runs keep the version they have. `guard_rule_ids` name error_rate or latency_p95 alert rules " +
      "that roll the canary back when they fire on its traffic. `version` publishes exactly that draft " +
      "(`409 draft_conflict` when the draft is another by now). The draft is checked as a new agent is (`400` with " +
      "the fields). `evaluation_id` names the evaluation of this draft the publish follows (docs/api.md, " +
      "Evaluations): the version's note and the audit event record it. `dry_run: true` answers what would change and changes nothing. No draft, or a draft equal to " +
      "the published version: `409 nothing_to_publish`; a rollout in progress: `409 rollout_in_progress`.",
    bodyExamples: {
      all: { summary: "Publish to everyone", value: { note: "Shorter prompt", version: 4 } },
      canary: {
        summary: "A 10 % canary with a guard",
        value: { rollout_percent: 10, guard_rule_ids: ["alr_0VdXj3Op5Qr6St7Uv8Wx9a"] },
      },
      preview: { summary: "What would change", value: { dry_run: true } },
    },
    responses: {
      "200": {
        description: "The agent (with its ETag), or with `dry_run` the preview.",
        examples: {
          published: { summary: "Version 4 live", value: { ...ex.agentRecord, published_version: 4 } },
          canary: { summary: "A canary of version 4", value: { ...ex.agentRecord, rollout: ex.rolloutRecord } },
          preview: { summary: "A dry run", value: ex.publishPreview },
        },
      },
    },
  }),
});
