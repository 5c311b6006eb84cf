// The management API (user token, /api/v1/organizations/{org_id}/...): Access Keys and agents.
import {
  AgentList,
  AgentRecord,
  CreateAgentBody,
  ManagementAgentListQuery,
  UpdateAgentBody,
} from "../../agents/schemas";
import { EchoRuntime, HttpRuntime, OpenAiRuntime, RuntimeConfig } from "../../runtime/schema";
import { Step, WorkflowDefinition } from "../../workflow/schema";
import { AccessKeyList, AccessKeyRecord, MintedAccessKey, MintKeyBody } from "../../keys/schemas";
import { SECRET_NAME_RE } from "../../secrets/refs";
import { DeletedSecret, SecretList, SecretRecord, SetSecretBody } from "../../secrets/schemas";
import { jsonContent, pathParameter, queryParameters, type Components, type Json, type Operation } from "./builder";
import * as ex from "./examples";

const ORG_ID = pathParameter("org_id", "The organization (`org_...`); the token's user must be a member.", ex.ID.org);
const KEY_ID = pathParameter("key_id", "The Access Key's id (`key_...`), not the key itself.", ex.ID.key);
const AGENT_ID = pathParameter("agent_id", "The agent (`agt_...`).", ex.ID.agent);
const SECRET_NAME = {
  ...pathParameter("name", "The secret's name: 1-64 letters, digits, `_`, `-` or `.`.", "openai-prod"),
  schema: { type: "string", pattern: SECRET_NAME_RE.source },
};

const BASE = "/api/v1/organizations/{org_id}";
const USER_ERRORS = ["unauthorized", "organization_not_found"] as const;
const ADMIN_ERRORS = [...USER_ERRORS, "forbidden"] as const;
const JSON_BODY_ERRORS = ["invalid_json", "invalid_request", "payload_too_large", "unsupported_media_type"] as const;

const answer = (description: string, content: Json) => ({ description, headers: {}, content });

export function managementOperations(c: Components): Operation[] {
  const keys = { tag: "Access Keys", auth: "userToken" as const };
  const agents = { tag: "Agents", auth: "userToken" as const };
  const secrets = { tag: "Organization secrets", auth: "userToken" as const };
  const secretRecord = c.ref("SecretRecord", SecretRecord);
  // Shared by the agent bodies and records (and llm steps): named once.
  c.ref("EchoRuntime", EchoRuntime);
  c.ref("OpenAiRuntime", OpenAiRuntime);
  c.ref("HttpRuntime", HttpRuntime);
  c.ref("RuntimeConfig", RuntimeConfig);
  c.ref("WorkflowStep", Step);
  c.ref("WorkflowDefinition", WorkflowDefinition);
  const agentRecord = c.ref("AgentRecord", AgentRecord);
  const keyRecord = c.ref("AccessKeyRecord", AccessKeyRecord);
  return [
    {
      ...keys,
      method: "post",
      path: `${BASE}/access-keys`,
      operationId: "mintAccessKey",
      summary: "Mint an Access Key",
      description:
        "Admin only. The answer carries the raw key in `key`, this once: the service keeps only its SHA-256 " +
        "hash. `permissions` defaults to `agents:invoke`; `rate_limit_per_minute` absent or `null` follows the " +
        "service default.",
      parameters: [ORG_ID],
      requestBody: {
        required: true,
        content: jsonContent(c.ref("MintKeyBody", MintKeyBody), {
          key: { summary: "A key for billing", value: ex.mintKeyBody },
        }),
      },
      responses: {
        "201": answer(
          "The key, with its raw secret.",
          jsonContent(c.ref("MintedAccessKey", MintedAccessKey), {
            minted: { summary: "Minted", value: { ...ex.accessKeyRecord, key: ex.ID.rawKey } },
          }),
        ),
      },
      errors: [...ADMIN_ERRORS, ...JSON_BODY_ERRORS],
    },
    {
      ...keys,
      method: "get",
      path: `${BASE}/access-keys`,
      operationId: "listAccessKeys",
      summary: "List Access Keys",
      description: "Newest first, never the secrets.",
      parameters: [ORG_ID],
      responses: {
        "200": answer(
          "The keys.",
          jsonContent(c.ref("AccessKeyList", AccessKeyList), {
            keys: {
              summary: "One key",
              value: { access_keys: [ex.accessKeyRecord], default_rate_limit_per_minute: 600 },
            },
          }),
        ),
      },
      errors: [...USER_ERRORS],
    },
    {
      ...keys,
      method: "delete",
      path: `${BASE}/access-keys/{key_id}`,
      operationId: "revokeAccessKey",
      summary: "Revoke an Access Key",
      description:
        "Admin only. The key is refused (`401`) within seconds on every instance. Idempotent: revoking again " +
        "answers the same record.",
      parameters: [ORG_ID, KEY_ID],
      responses: {
        "200": answer(
          "The revoked key.",
          jsonContent(keyRecord, {
            revoked: { summary: "Revoked", value: { ...ex.accessKeyRecord, revoked_at: ex.EXAMPLE_TIME } },
          }),
        ),
      },
      errors: [...ADMIN_ERRORS, "access_key_not_found"],
    },
    {
      ...agents,
      method: "post",
      path: `${BASE}/agents`,
      operationId: "createAgent",
      summary: "Create an agent",
      description:
        "Admin only. A workflow agent needs `workflow` (docs/workflows.md); a conversational agent takes none. " +
        "JSONata syntax errors are reported with the step's path.",
      parameters: [ORG_ID],
      requestBody: {
        required: true,
        content: jsonContent(c.ref("CreateAgentBody", CreateAgentBody), {
          conversational: { summary: "A conversational agent", value: ex.createConversationalAgent },
          openai: { summary: "An OpenAI agent whose key is an organization secret", value: ex.createOpenAiAgent },
          workflow: { summary: "A workflow agent", value: ex.createWorkflowAgent },
        }),
      },
      responses: {
        "201": answer("The agent.", jsonContent(agentRecord, { agent: { summary: "Created", value: ex.agentRecord } })),
      },
      errors: [...ADMIN_ERRORS, ...JSON_BODY_ERRORS, "invalid_callback_url", "invalid_agent"],
    },
    {
      ...agents,
      method: "get",
      path: `${BASE}/agents`,
      operationId: "listAgents",
      summary: "List agents",
      parameters: [
        ORG_ID,
        ...queryParameters(ManagementAgentListQuery, {
          include_archived: "`true` lists archived agents too (`true` or `false`).",
        }),
      ],
      responses: {
        "200": answer(
          "The agents.",
          jsonContent(c.ref("AgentList", AgentList), {
            agents: { summary: "One agent", value: { agents: [ex.agentRecord] } },
          }),
        ),
      },
      errors: [...USER_ERRORS, "invalid_request"],
    },
    {
      ...agents,
      method: "get",
      path: `${BASE}/agents/{agent_id}`,
      operationId: "getAgent",
      summary: "Fetch an agent",
      description: "Archived agents too.",
      parameters: [ORG_ID, AGENT_ID],
      responses: {
        "200": answer(
          "The agent.",
          jsonContent(agentRecord, { agent: { summary: "An agent", value: ex.agentRecord } }),
        ),
      },
      errors: [...USER_ERRORS, "agent_not_found"],
    },
    {
      ...agents,
      method: "patch",
      path: `${BASE}/agents/{agent_id}`,
      operationId: "updateAgent",
      summary: "Update an agent",
      description: "Admin only. Any of `name`, `project_id`, `runtime`, `workflow`; the `kind` cannot change.",
      parameters: [ORG_ID, AGENT_ID],
      requestBody: {
        required: true,
        content: jsonContent(c.ref("UpdateAgentBody", UpdateAgentBody), {
          rename: { summary: "Rename", value: { name: "Support bot (EU)" } },
        }),
      },
      responses: {
        "200": answer(
          "The agent.",
          jsonContent(agentRecord, {
            agent: { summary: "Renamed", value: { ...ex.agentRecord, name: "Support bot (EU)" } },
          }),
        ),
      },
      errors: [...ADMIN_ERRORS, ...JSON_BODY_ERRORS, "invalid_callback_url", "invalid_agent", "agent_not_found"],
    },
    {
      ...agents,
      method: "delete",
      path: `${BASE}/agents/{agent_id}`,
      operationId: "archiveAgent",
      summary: "Archive an agent",
      description:
        "Admin only. The agent takes no new triggers or uploads (`409 agent_archived`); its sessions, messages, " +
        "runs and files stay readable and its runs controllable. Idempotent; cannot be undone.",
      parameters: [ORG_ID, AGENT_ID],
      responses: {
        "200": answer(
          "The archived agent.",
          jsonContent(agentRecord, {
            archived: { summary: "Archived", value: { ...ex.agentRecord, archived_at: ex.EXAMPLE_TIME } },
          }),
        ),
      },
      errors: [...ADMIN_ERRORS, "agent_not_found"],
    },
    {
      ...secrets,
      method: "get",
      path: `${BASE}/secrets`,
      operationId: "listSecrets",
      summary: "List organization secrets",
      description:
        "Admin only. Names, a 4-character hint and times, by name; never a value. `used_by` lists the agents " +
        "whose configuration names each secret.",
      parameters: [ORG_ID],
      responses: {
        "200": answer(
          "The secrets.",
          jsonContent(c.ref("SecretList", SecretList), {
            secrets: { summary: "One secret", value: { secrets: [ex.secretRecord] } },
          }),
        ),
      },
      errors: [...ADMIN_ERRORS],
    },
    {
      ...secrets,
      method: "put",
      path: `${BASE}/secrets/{name}`,
      operationId: "setSecret",
      summary: "Create or replace an organization secret",
      description:
        "Admin only. Write-only: the value is sealed (AES-256-GCM) and no answer, page or log ever shows it " +
        "again. Replacing a value (a rotation) takes effect at the agents' next call. An agent names it by " +
        "`runtime.api_key_secret` (openai) or `{{secrets.<name>}}` in a header value. An organization holds at most 100.",
      parameters: [ORG_ID, SECRET_NAME],
      requestBody: {
        required: true,
        content: jsonContent(c.ref("SetSecretBody", SetSecretBody), {
          key: { summary: "A model API key", value: { value: "sk-...x9Qk" } },
        }),
      },
      responses: {
        "201": answer(
          "Created.",
          jsonContent(secretRecord, { created: { summary: "Created", value: ex.secretRecord } }),
        ),
        "200": answer(
          "Replaced.",
          jsonContent(secretRecord, { replaced: { summary: "Replaced", value: ex.secretRecord } }),
        ),
      },
      errors: [...ADMIN_ERRORS, ...JSON_BODY_ERRORS],
    },
    {
      ...secrets,
      method: "delete",
      path: `${BASE}/secrets/{name}`,
      operationId: "deleteSecret",
      summary: "Delete an organization secret",
      description: "Admin only. Refused with `409 secret_in_use` while an agent names it.",
      parameters: [ORG_ID, SECRET_NAME],
      responses: {
        "200": answer(
          "Deleted.",
          jsonContent(c.ref("DeletedSecret", DeletedSecret), {
            deleted: { summary: "Deleted", value: { name: "openai-prod", deleted: true } },
          }),
        ),
      },
      errors: [...ADMIN_ERRORS, "invalid_request", "secret_not_found", "secret_in_use"],
    },
  ];
}
