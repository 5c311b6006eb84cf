// Example values of the OpenAPI document: ids in the service's formats, answers in the shapes the
// schemas declare (Redocly's lint checks every example against its schema).
import { EXAMPLE_ID } from "../id-format";
export const ID = EXAMPLE_ID;

const AT = "2026-11-25T22:00:00.000Z";
const LATER = "2026-11-25T22:00:04.250Z";
const URL_EXPIRES = "2026-11-25T22:15:04.000Z";

const tokens = { prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 };

export const conversationTriggerBody = {
  message: "Where is my order?",
  user_id: "cust_42",
  attachments: [{ file_id: ID.file }],
  metadata: { channel: "email" },
};

export const conversationReply = {
  success: true,
  session_id: ID.session,
  message_id: ID.reply,
  agent_id: ID.agent,
  organization_id: ID.org,
  project_id: ID.project,
  agent_version: 3,
  status: "completed",
  response: "Echo: Where is my order? [attachments: orders.csv]",
  files: [],
  token_usage: tokens,
  processing_time: 0.012,
  timestamp: AT,
};

export const conversationAccepted = {
  success: true,
  session_id: ID.session,
  message_id: ID.reply,
  agent_id: ID.agent,
  organization_id: ID.org,
  project_id: ID.project,
  agent_version: 3,
  status: "processing",
  timestamp: AT,
};

export const workflowInputs = { rows: { file_id: ID.file }, threshold: 100 };

export const runAccepted = { run_id: ID.run, status: "pending", agent_id: ID.workflowAgent, agent_version: 3 };
export const workflowRunAccepted = { run_id: ID.run, status: "triggered" };

export const uploadedFile = { file_id: ID.file, size_bytes: 36, content_type: "text/csv", filename: "orders.csv" };

export const sessionListItem = {
  session_id: ID.session,
  agent_id: ID.agent,
  status: "active",
  channel: "webhook",
  user_id: "cust_42",
  created_at: AT,
  last_message_at: AT,
  message_count: 2,
  total_tokens: 9,
};

export const sessionRecord = {
  session_id: ID.session,
  agent_id: ID.agent,
  status: "active",
  channel: "webhook",
  user_id: "cust_42",
  created_at: AT,
  last_message_at: AT,
  message_count: 2,
  organization_id: ID.org,
  project_id: ID.project,
  token_usage: tokens,
  cost: 0,
  metadata: { channel: "email" },
};

export const userMessage = {
  message_id: ID.userMessage,
  role: "user",
  status: "completed",
  content: "Where is my order?",
  created_at: AT,
  model: null,
  token_usage: null,
  agent_version: null,
};

export const replyMessage = {
  message_id: ID.reply,
  role: "assistant",
  status: "completed",
  content: "Echo: Where is my order?",
  created_at: AT,
  model: "echo",
  token_usage: tokens,
  agent_version: 3,
};

export const messageRecord = {
  ...replyMessage,
  session_id: ID.session,
  agent_id: ID.agent,
  organization_id: ID.org,
  project_id: ID.project,
  cost: 0,
  processing_time_ms: 12,
  error: null,
};

export const failedMessageRecord = {
  ...messageRecord,
  status: "error",
  content: "",
  token_usage: null,
  error: { code: "message_processing_failed", message: "The agent runtime failed to produce a reply." },
};

export const runListItem = {
  run_id: ID.run,
  agent_id: ID.workflowAgent,
  status: "completed",
  progress_percent: 100,
  started_at: AT,
  completed_at: LATER,
  duration_seconds: 4.25,
  trigger_type: "event",
  error: null,
  agent_version: 3,
  summary: { total_processed: 3, successful: 2, failed: 1, exceptions: 0, skipped: 0 },
  item_counts: { completed: 2, failed: 1, needs_review: 0, total: 3 },
};

export const runRecord = {
  ...runListItem,
  output_files: [
    {
      filename: "results.csv",
      content_type: "text/csv",
      size_bytes: 512,
      url: "https://agents.example.com/api/files/download?token=eyJrIjoi...",
      url_expires_at: URL_EXPIRES,
    },
  ],
  events: [
    { action: "trigger", from: null, to: "pending", actor: "billing", triggered_by: null, at: AT },
    { action: "start", from: "pending", to: "running", actor: "system", triggered_by: null, at: AT },
    { action: "finish", from: "running", to: "completed", actor: "system", triggered_by: null, at: LATER },
  ],
};

export const pausedRunRecord = {
  ...runRecord,
  status: "paused",
  progress_percent: 33.33,
  completed_at: null,
  duration_seconds: 1.5,
  summary: { total_processed: 1, successful: 1, failed: 0, exceptions: 0, skipped: 0 },
  item_counts: { completed: 1, failed: 0, needs_review: 0, total: 3 },
  output_files: [],
  events: [
    runRecord.events[0],
    runRecord.events[1],
    { action: "pause", from: "running", to: "paused", actor: "billing", triggered_by: "ops-oncall", at: LATER },
  ],
};

/** A run's record after a control: paused from running, or moved on from paused (retry: from failed). */
export function controlledRun(action: "pause" | "resume" | "cancel" | "retry") {
  if (action === "pause") return pausedRunRecord;
  const from = action === "retry" ? "failed" : "paused";
  const to = { resume: "running", cancel: "cancelled", retry: "pending" }[action];
  return {
    ...pausedRunRecord,
    status: to,
    completed_at: action === "cancel" ? LATER : null,
    events: [...pausedRunRecord.events, { action, from, to, actor: "billing", triggered_by: "ops-oncall", at: LATER }],
  };
}

export const approval = {
  exception_id: ID.exception,
  step_id: "big",
  item_id: ID.item,
  data: { order: 1234, qty: 30, price: 10, total: 300 },
  error: "large order",
  requires_human_review: true,
  blocking: true,
  resolution: null,
  resolved_by: null,
  resolved_at: null,
  reason: null,
};

export const resolveBody = { exception_id: ID.exception, resolution: "approved" };
export const resolveResult = {
  exception_id: ID.exception,
  resolution: "approved",
  all_resolved: true,
  resumed: true,
  resolved_by: ID.key,
  resolved_at: LATER,
  reason: "within the customer's credit limit",
};

export const accessKeyRecord = {
  key_id: ID.key,
  organization_id: ID.org,
  name: "billing",
  start: "ak_4kPz9",
  permissions: ["agents:invoke"],
  rate_limit_per_minute: 120,
  created_at: AT,
  last_used_at: null,
  revoked_at: null,
  expires_at: null,
  agent_ids: null,
  revoke_at: null,
  rolled_to_key_id: null,
  rolled_from_key_id: null,
};

export const mintKeyBody = { name: "billing", permissions: ["agents:invoke"], rate_limit_per_minute: 120 };

export const agentRecord = {
  agent_id: ID.agent,
  organization_id: ID.org,
  project_id: ID.project,
  name: "Support bot",
  kind: "conversational",
  runtime: { type: "echo", delay_ms: 0 },
  workflow: null,
  created_at: AT,
  updated_at: AT,
  archived_at: null,
  callback_url: null,
  published_version: 3,
  draft_version: null,
  previous_version: 2,
  rollout: null,
};

export const rolloutRecord = {
  version: 4,
  percent: 10,
  from_version: 3,
  guard_rule_ids: ["alr_0VdXj3Op5Qr6St7Uv8Wx9a"],
  started_at: AT,
  updated_at: AT,
};

const versionListItem = {
  agent_id: ID.agent,
  version: 4,
  state: "draft",
  traffic_percent: 0,
  note: "Shorter system prompt",
  base_version: 3,
  created_by: { type: "user", id: "usr_0VdXgk9Qm2N8pR4sT6uV1y", label: "ops@acme.test" },
  created_at: LATER,
  published_at: null,
  rolled_back_at: null,
};

export const versionList = {
  versions: [
    versionListItem,
    {
      ...versionListItem,
      version: 3,
      state: "published",
      traffic_percent: 100,
      note: null,
      base_version: 2,
      created_at: AT,
      published_at: AT,
    },
  ],
  has_more: false,
  next_cursor: null,
};

export const versionRecord = {
  ...versionListItem,
  runtime: { type: "echo", delay_ms: 0 },
  workflow: null,
  callback_url: null,
};

export const versionDiff = {
  agent_id: ID.agent,
  from_version: 3,
  to_version: 4,
  changes: [
    { path: "runtime.system", change: "changed", from: "You are a helpful assistant.", to: "Answer in one sentence." },
    {
      path: "runtime.headers.authorization",
      change: "changed",
      from: "[redacted]",
      to: "Bearer {{secrets.crm-token}}",
    },
  ],
};

export const publishPreview = {
  agent_id: ID.agent,
  dry_run: true,
  version: 4,
  published_version: 3,
  rollout_percent: 100,
  changes: versionDiff.changes,
  open_sessions: 12,
  runs_in_progress: 0,
  summary: "Replies in new sessions will use version 4; 12 open sessions keep version 3.",
};

const figures = {
  triggers: 120,
  replies: 120,
  replies_failed: 1,
  runs_started: 0,
  runs_ended: 0,
  runs_failed: 0,
  error_rate: 0.83,
  latency_p50_ms: 905,
  latency_p95_ms: 2560,
  prompt_tokens: 48000,
  completion_tokens: 9600,
  cost: 0.01296,
};

export const rolloutReport = {
  agent_id: ID.agent,
  rollout: rolloutRecord,
  since: AT,
  versions: [
    {
      version: 4,
      role: "canary",
      traffic_percent: 10,
      ...figures,
      triggers: 12,
      replies: 12,
      replies_failed: 0,
      error_rate: 0,
    },
    { version: 3, role: "published", traffic_percent: 90, ...figures },
  ],
};

export const secretRecord = {
  secret_id: ID.secret,
  name: "openai-prod",
  hint: "x9Qk",
  created_at: AT,
  updated_at: AT,
  used_by: [{ agent_id: ID.agent, name: "Support bot", fields: ["runtime.api_key_secret"] }],
};

export const createOpenAiAgent = {
  name: "Support bot",
  kind: "conversational",
  runtime: {
    type: "openai",
    base_url: "https://api.openai.com/v1",
    model: "gpt-4o-mini",
    api_key_secret: "openai-prod",
    headers: { "OpenAI-Organization": "{{secrets.openai-org}}" },
  },
};

export const createConversationalAgent = { name: "Support bot", kind: "conversational", runtime: { type: "echo" } };

export const createWorkflowAgent = {
  name: "Order review",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "file", required: true }, threshold: { type: "number" } },
    items: { from: "rows", format: "csv" },
    steps: [
      {
        id: "total",
        type: "transform",
        expression: "$merge([item, {'total': $number(item.qty) * $number(item.price)}])",
      },
      { id: "big", type: "review", when: "item.total > inputs.threshold", message: "large order" },
    ],
    output: { filename: "results.csv", format: "csv" },
  },
};

export { AT as EXAMPLE_TIME };

/** An alert rule (docs/api.md, Alerts). */
export const alertRuleRecord = {
  rule_id: ID.rule,
  name: "Support bot errors",
  kind: "error_rate",
  agent_id: ID.agent,
  threshold: 10,
  window_minutes: 15,
  min_volume: 20,
  quiet_minutes: 60,
  url: "https://hooks.example.com/alerts",
  email: "oncall@example.com",
  enabled: true,
  firing: false,
  fired_at: null,
  resolved_at: null,
  last_value: 2.5,
  created_at: "2026-11-20T10:00:00.000Z",
};

export const evaluationEstimate = { cases: 50, model_calls: 50, http_calls: 0, tokens: 21_400, cost_usd: 0.0642 };

export const evaluationRecord = {
  evaluation_id: ID.evaluation,
  agent_id: ID.agent,
  status: "completed",
  stop_reason: null,
  candidate: { version: 5, draft: true },
  baseline: { kind: "recorded", version: null },
  source: { kind: "sessions", filters: { status: "closed" }, limit: 50, sample: "latest", turns: "last" },
  checks: [
    { kind: "expression", name: "mentions the order", expression: '$contains(output, "order")' },
    { kind: "no_error" },
  ],
  budget: { max_cost_usd: 1, max_tokens: null },
  live_calls: false,
  estimate: evaluationEstimate,
  progress: { total: 50, done: 50 },
  counts: { passed: 46, failed: 3, errored: 1, skipped: 0, changed: 41 },
  verdicts: { better: 12, same: 5, worse: 2 },
  sides: {
    baseline: { cases: 50, error_rate: 0, latency_ms: { p50: 1840, p95: 3920 }, tokens: 21_012, cost_usd: 0.0631 },
    candidate: { cases: 50, error_rate: 0.02, latency_ms: { p50: 1210, p95: 2875 }, tokens: 17_730, cost_usd: 0.0532 },
  },
  spent: { tokens: 17_730, cost_usd: 0.0532 },
  error: null,
  created_by: "admin@example.com",
  created_at: AT,
  started_at: AT,
  finished_at: LATER,
};

export const evaluationDryRun = {
  dry_run: true,
  candidate: { version: 5, draft: true },
  baseline: { kind: "recorded", version: null },
  estimate: evaluationEstimate,
};

export const evaluationCase = {
  case_id: ID.evaluationCase,
  position: 0,
  source: { type: "session", id: ID.session },
  status: "done",
  outcome: "passed",
  skip_reason: null,
  changed: true,
  input: "Where is my order?",
  baseline: {
    output: "Your order shipped yesterday.",
    error: null,
    latency_ms: 1840,
    tokens: 412,
    cost_usd: 0.0012,
  },
  candidate: {
    output: "Your order shipped yesterday; it arrives Friday.",
    error: null,
    latency_ms: 1210,
    tokens: 398,
    cost_usd: 0.0011,
  },
  diff: [
    { op: "equal", text: "Your order shipped " },
    { op: "delete", text: "yesterday." },
    { op: "insert", text: "yesterday; it arrives Friday." },
  ],
  checks: [
    { name: "mentions the order", kind: "expression", passed: true, message: null },
    { name: "no_error#2", kind: "no_error", passed: true, message: null },
  ],
  verdict: "better",
  verdict_note: "Gives the delivery day",
  verdict_by: "support@example.com",
  verdict_at: LATER,
  finished_at: LATER,
};

/** A member of the organization (docs/api.md, Members and invitations). */
export const memberRecord = {
  user_id: ID.user,
  email: "ada@example.com",
  name: "Ada",
  role: "admin",
  joined_at: "2026-09-01T08:00:00.000Z",
};

/** A pending invitation. */
export const invitationRecord = {
  invitation_id: ID.invitation,
  email: "grace@example.com",
  role: "support",
  invited_by: "ada@example.com",
  created_at: "2026-11-28T09:00:00.000Z",
  expires_at: "2026-12-05T09:00:00.000Z",
};

/** A saved view of the runs list (docs/console.md, Saved views). */
export const viewRecord = {
  view_id: ID.view,
  list: "runs",
  name: "Failed this week",
  filters: { status: "failed", from: "2026-11-23T00:00:00.000Z" },
  shared: true,
  owner_id: ID.user,
  mine: true,
  editable: true,
  created_at: "2026-11-28T09:30:00.000Z",
};
