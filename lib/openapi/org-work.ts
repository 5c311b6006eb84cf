// Fragments of the organization API's operations on the work of every agent
// (/api/v1/organizations/{org_id}/runs, reviews, bulk-actions and deliveries): the tags they are
// listed under, and example answers (Redocly's lint checks each against its schema).
import type { ControlAction } from "../runs/state";
import type { OperationDoc } from "../http/contract";
import * as ex from "./examples";
import { controlDoc } from "./parts";

const BULK = ex.ID.bulkAction;
const DELIVERY = ex.ID.delivery;

export const TAG = {
  runs: "Runs across agents",
  reviews: "Reviews",
  bulk: "Bulk actions",
  deliveries: "Callback deliveries",
} as const;

const AT = ex.runListItem.started_at;
const LATER = ex.runListItem.completed_at;

export const orgRunListItem = { ...ex.runListItem, agent_name: "Order checks", created_at: AT };

export const orgRunDetail = {
  ...ex.pausedRunRecord,
  agent_name: "Order checks",
  created_at: AT,
  inputs: ex.workflowInputs,
  allowed_actions: ["resume", "cancel"],
  rerun_of: null,
  reruns: [],
};

/** The prose of the four run controls of the organization API: the public API's, by any member. */
export function orgControlDoc(action: ControlAction): OperationDoc {
  const doc = controlDoc(action);
  const allowed = { pause: ["resume", "cancel"], resume: ["pause", "cancel"], cancel: [], retry: ["pause", "cancel"] }[
    action
  ];
  return {
    ...doc,
    operationId: `${action}OrganizationRun`,
    tag: TAG.runs,
    description:
      `Every member, on a run of any agent of the organization (\`404 run_not_found\` otherwise); the run's audit ` +
      `trail records the move as triggered by \`dashboard:<email>\`. ${doc.description ?? ""} Answers the run ` +
      "as `getOrganizationRun` does.",
    responses: {
      "200": {
        description: "The run after the move.",
        examples: {
          run: {
            summary: `After ${action}`,
            value: { ...orgRunDetail, ...ex.controlledRun(action), allowed_actions: allowed },
          },
        },
      },
    },
  };
}

export const runItem = {
  item_id: ex.ID.item,
  index: 0,
  status: "needs_review",
  step_id: "big",
  data: ex.approval.data,
  result: null,
  error: "large order",
  exception: true,
  resolution: null,
  updated_at: LATER,
  timeline: [
    {
      step_id: "big",
      type: "review",
      attempt: 1,
      started_at: AT,
      duration_ms: null,
      outcome: "needs_review",
      error: "large order",
    },
  ],
};

export const orgApproval = {
  ...ex.approval,
  index: 0,
  claimed_by: "Ada",
  claimed_until: "2026-11-25T22:15:00.000Z",
  diff: null,
};

export const reviewItem = {
  ...orgApproval,
  run_id: ex.ID.run,
  run_status: "needs_review",
  agent_id: ex.ID.workflowAgent,
  agent_name: "Order checks",
  waiting_since: AT,
};

export const bulkPreview = {
  action: "cancel",
  target_type: "run",
  matched: 3,
  allowed: 2,
  not_allowed: [{ reason: "status", status: "completed", count: 1 }],
  sample: [
    { id: ex.ID.run, name: "Order checks", status: "running" },
    { id: "run_0VdXi2Mn4Pq5Rs6Tu7Vw8y", name: "Order checks", status: "paused" },
  ],
};

export const bulkActionRecord = {
  bulk_action_id: BULK,
  action: "cancel",
  target_type: "run",
  selection: { filter: { status: "paused", agent_id: ex.ID.workflowAgent } },
  status: "completed",
  matched: 3,
  allowed: 2,
  not_allowed: [{ reason: "status", status: "completed", count: 1 }],
  total: 3,
  processed: 3,
  counts: { done: 2, skipped: 1, failed: 0 },
  skipped_reasons: [{ reason: "status", status: "completed", count: 1 }],
  started_by: { type: "user", id: ex.ID.user, label: "ada@example.com" },
  started_at: AT,
  completed_at: LATER,
  error: null,
};

export const deliverySummary = {
  id: DELIVERY,
  event: "run.completed",
  url: "https://hooks.example.com/agents",
  agent_id: ex.ID.workflowAgent,
  subject_id: ex.ID.run,
  session_id: null,
  status: "delivered",
  attempts: 1,
  last_status_code: 200,
  next_attempt_at: null,
  created_at: AT,
  delivered_at: LATER,
};

export const deliveryDetail = {
  ...deliverySummary,
  request: {
    headers: {
      "content-type": "application/json",
      "webhook-id": DELIVERY,
      "webhook-timestamp": "1795730404",
      "webhook-signature": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
    },
    body: '{"type":"run.completed","data":{"run_id":"run_0VdXi2Mn4Pq5Rs6Tu7Vw8x","status":"completed"}}',
  },
  attempts: [
    {
      number: 1,
      started_at: AT,
      duration_ms: 184,
      status_code: 200,
      error: null,
      response_body: "ok",
    },
  ],
};
