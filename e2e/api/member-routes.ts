// Every route of the organization API (/api/v1/organizations/[org_id]/..., auth "member"), for the
// member matrix (e2e/security/member-matrix.test.ts): the list and which routes are admin only come
// from the route contracts (app/api/contracts.ts); what is kept here is how to call each one, in
// organization A (REQUESTS). A member route without a request here fails at load.
import { CONTRACTS } from "../../app/api/contracts";
import { finishedExport, HARMLESS_BULK_ACTION, type ConsoleFixtures } from "./console-routes";

export interface MemberRequest {
  method: string;
  /** The route's pattern: with the method, the key of its contract. */
  pattern: string;
  /** The path under `/api/v1/organizations/{org A}`. */
  path: (f: ConsoleFixtures) => string | Promise<string>;
  body?: (f: ConsoleFixtures) => unknown;
  /**
   * What a support member gets on a route open to every member whose target is another member's own
   * (an admin's personal saved view): the status and code, instead of an answer.
   */
  notSupports?: [number, string];
}

export interface MemberRoute extends MemberRequest {
  /** Admin only (its contract says so): support gets 403 forbidden. */
  admin: boolean;
}

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
const ORG = "/api/v1/organizations/[org_id]";

type Review = Awaited<ReturnType<ConsoleFixtures["freshReview"]>>;
let shared: Promise<Review> | undefined;
/** One item waiting for review, for the routes that read or claim it (a claim with take_over repeats). */
const waiting = (f: ConsoleFixtures) => (shared ??= f.freshReview());
/** The item a decision's path named: its body names the same one. */
let decided: Review | undefined;

const REQUESTS: MemberRequest[] = [
  { method: "GET", pattern: `${ORG}/access-keys`, path: () => "/access-keys" },
  {
    method: "POST",
    pattern: `${ORG}/access-keys`,
    path: () => "/access-keys",
    body: () => ({ name: `matrix ${unique()}`, permissions: ["agents:invoke"], rate_limit_per_minute: 120 }),
  },
  {
    method: "PATCH",
    pattern: `${ORG}/access-keys/[key_id]`,
    path: async (f) => `/access-keys/${await f.freshKey()}`,
    body: () => ({ name: `matrix ${unique()}`, rate_limit_per_minute: 60 }),
  },
  { method: "DELETE", pattern: `${ORG}/access-keys/[key_id]`, path: async (f) => `/access-keys/${await f.freshKey()}` },
  { method: "GET", pattern: `${ORG}/access-keys/[key_id]`, path: async (f) => `/access-keys/${await f.freshKey()}` },
  {
    method: "POST",
    pattern: `${ORG}/access-keys/[key_id]/roll`,
    path: async (f) => `/access-keys/${await f.freshKey()}/roll`,
    body: () => ({ grace_period_seconds: 3600 }),
  },
  {
    method: "GET",
    pattern: `${ORG}/access-keys/[key_id]/usage-preview`,
    path: async (f) => `/access-keys/${await f.freshKey()}/usage-preview`,
  },
  { method: "GET", pattern: `${ORG}/agents`, path: () => "/agents" },
  {
    method: "POST",
    pattern: `${ORG}/agents`,
    path: () => "/agents",
    body: () => ({ name: `matrix ${unique()}`, kind: "conversational", runtime: { type: "echo" } }),
  },
  { method: "GET", pattern: `${ORG}/agents/[agent_id]`, path: (f) => `/agents/${f.conversational}` },
  {
    method: "PATCH",
    pattern: `${ORG}/agents/[agent_id]`,
    path: (f) => `/agents/${f.conversational}`,
    body: () => ({ name: "matrix echo" }),
  },
  { method: "DELETE", pattern: `${ORG}/agents/[agent_id]`, path: async (f) => `/agents/${await f.freshAgent()}` },
  {
    method: "DELETE",
    pattern: `${ORG}/agents/[agent_id]/draft`,
    path: async (f) => `/agents/${await f.freshDraftAgent()}/draft`,
  },
  {
    method: "POST",
    pattern: `${ORG}/agents/[agent_id]/publish`,
    path: async (f) => `/agents/${await f.freshDraftAgent()}/publish`,
    body: () => ({ note: "matrix" }),
  },
  {
    method: "POST",
    pattern: `${ORG}/agents/[agent_id]/rollback`,
    path: async (f) => `/agents/${await f.freshRolloutAgent()}/rollback`,
    body: () => ({}),
  },
  {
    method: "GET",
    pattern: `${ORG}/agents/[agent_id]/rollout`,
    path: async (f) => `/agents/${await f.freshRolloutAgent()}/rollout`,
  },
  {
    method: "POST",
    pattern: `${ORG}/agents/[agent_id]/rollout`,
    path: async (f) => `/agents/${await f.freshRolloutAgent()}/rollout`,
    body: () => ({ percent: 50 }),
  },
  { method: "GET", pattern: `${ORG}/agents/[agent_id]/versions`, path: (f) => `/agents/${f.conversational}/versions` },
  {
    method: "GET",
    pattern: `${ORG}/agents/[agent_id]/versions/[version]`,
    path: (f) => `/agents/${f.conversational}/versions/1`,
  },
  {
    method: "GET",
    pattern: `${ORG}/agents/[agent_id]/versions/[version]/diff`,
    path: async (f) => `/agents/${await f.freshDraftAgent()}/versions/1/diff?to=2`,
  },
  {
    method: "POST",
    pattern: `${ORG}/agents/[agent_id]/versions/[version]/restore`,
    path: async (f) => `/agents/${await f.freshAgent()}/versions/1/restore`,
    body: () => ({ note: "matrix" }),
  },
  {
    method: "GET",
    pattern: `${ORG}/agents/[agent_id]/evaluations`,
    path: (f) => `/agents/${f.conversational}/evaluations`,
  },
  {
    method: "POST",
    pattern: `${ORG}/agents/[agent_id]/evaluations`,
    path: (f) => `/agents/${f.conversational}/evaluations`,
    // A dry run: it answers the figures and makes nothing (the organization's evaluations are bounded).
    body: () => ({ candidate: 1, source: { kind: "sessions", limit: 5 }, dry_run: true }),
  },
  {
    method: "GET",
    pattern: `${ORG}/agents/[agent_id]/evaluations/[evaluation_id]`,
    path: async (f) => {
      const e = await f.evaluation();
      return `/agents/${e.agentId}/evaluations/${e.evaluationId}`;
    },
  },
  {
    method: "POST",
    pattern: `${ORG}/agents/[agent_id]/evaluations/[evaluation_id]/cancel`,
    path: async (f) => {
      const e = await f.freshEvaluation();
      return `/agents/${e.agentId}/evaluations/${e.evaluationId}/cancel`;
    },
  },
  {
    method: "GET",
    pattern: `${ORG}/agents/[agent_id]/evaluations/[evaluation_id]/cases`,
    path: async (f) => {
      const e = await f.evaluation();
      return `/agents/${e.agentId}/evaluations/${e.evaluationId}/cases`;
    },
  },
  {
    method: "GET",
    pattern: `${ORG}/agents/[agent_id]/evaluations/[evaluation_id]/cases/[case_id]`,
    path: async (f) => {
      const e = await f.evaluation();
      return `/agents/${e.agentId}/evaluations/${e.evaluationId}/cases/${e.caseId}`;
    },
  },
  {
    method: "PUT",
    pattern: `${ORG}/agents/[agent_id]/evaluations/[evaluation_id]/cases/[case_id]/verdict`,
    path: async (f) => {
      const e = await f.evaluation();
      return `/agents/${e.agentId}/evaluations/${e.evaluationId}/cases/${e.caseId}/verdict`;
    },
    body: () => ({ verdict: "same", note: "matrix" }),
  },
  { method: "GET", pattern: `${ORG}/alert-events`, path: () => "/alert-events" },
  { method: "GET", pattern: `${ORG}/alert-rules`, path: () => "/alert-rules" },
  {
    method: "POST",
    pattern: `${ORG}/alert-rules`,
    path: () => "/alert-rules",
    body: () => ({ name: `matrix ${unique()}`, kind: "review_waiting", threshold: 600 }),
  },
  { method: "GET", pattern: `${ORG}/alert-rules/[rule_id]`, path: async (f) => `/alert-rules/${await f.freshRule()}` },
  {
    method: "PATCH",
    pattern: `${ORG}/alert-rules/[rule_id]`,
    path: async (f) => `/alert-rules/${await f.freshRule()}`,
    body: () => ({ enabled: false }),
  },
  {
    method: "DELETE",
    pattern: `${ORG}/alert-rules/[rule_id]`,
    path: async (f) => `/alert-rules/${await f.freshRule()}`,
  },
  {
    method: "POST",
    pattern: `${ORG}/alert-rules/[rule_id]/test`,
    path: async (f) => `/alert-rules/${await f.freshRule()}/test`,
  },
  { method: "GET", pattern: `${ORG}/exports`, path: () => "/exports" },
  {
    method: "POST",
    pattern: `${ORG}/exports`,
    path: () => "/exports",
    body: () => ({ kind: "sessions", format: "jsonl" }),
  },
  {
    method: "GET",
    pattern: `${ORG}/exports/[export_id]`,
    path: async (f) => `/exports/${(await finishedExport(f.orgA)).id}`,
  },
  {
    method: "GET",
    pattern: `${ORG}/exports/[export_id]/download`,
    path: async (f) => {
      const done = await finishedExport(f.orgA);
      return `/exports/${done.id}/download?token=${done.token}`;
    },
  },
  { method: "GET", pattern: `${ORG}/retention`, path: () => "/retention?preview_days=30" },
  {
    method: "PATCH",
    pattern: `${ORG}/retention`,
    path: () => "/retention",
    // The suite's organizations follow the server default (keep forever): setting it again changes nothing.
    body: () => ({ retention_days: null }),
  },
  { method: "GET", pattern: `${ORG}/secrets`, path: () => "/secrets" },
  {
    method: "PUT",
    pattern: `${ORG}/secrets/[name]`,
    path: () => `/secrets/matrix-${unique()}`,
    body: () => ({ value: "matrix-secret-value" }),
  },
  { method: "DELETE", pattern: `${ORG}/secrets/[name]`, path: async (f) => `/secrets/${await f.freshSecret()}` },
  { method: "GET", pattern: `${ORG}/usage`, path: () => "/usage?group_by=hour" },
  { method: "GET", pattern: `${ORG}/members`, path: () => "/members" },
  {
    method: "PATCH",
    pattern: `${ORG}/members/[user_id]`,
    path: (f) => `/members/${f.supportUserId}`,
    body: () => ({ role: "support" }),
  },
  { method: "DELETE", pattern: `${ORG}/members/[user_id]`, path: async (f) => `/members/${await f.freshMember()}` },
  { method: "GET", pattern: `${ORG}/invitations`, path: () => "/invitations" },
  {
    method: "POST",
    pattern: `${ORG}/invitations`,
    path: () => "/invitations",
    body: () => ({ email: `matrix-${unique()}@example.com`, role: "support" }),
  },
  {
    method: "DELETE",
    pattern: `${ORG}/invitations/[invitation_id]`,
    path: async (f) => `/invitations/${await f.freshInvitation()}`,
  },
  { method: "GET", pattern: `${ORG}/audit`, path: () => "/audit?action=agent.*&limit=20" },
  { method: "GET", pattern: `${ORG}/views`, path: () => "/views?list=runs" },
  {
    method: "POST",
    pattern: `${ORG}/views`,
    path: () => "/views",
    body: () => ({ list: "runs", name: `matrix ${unique()}`, filters: { status: "failed" } }),
  },
  {
    method: "PATCH",
    pattern: `${ORG}/views/[view_id]`,
    path: async (f) => `/views/${await f.freshView()}`,
    body: () => ({ name: "renamed" }),
    notSupports: [404, "view_not_found"],
  },
  {
    method: "DELETE",
    pattern: `${ORG}/views/[view_id]`,
    path: async (f) => `/views/${await f.freshView()}`,
    notSupports: [404, "view_not_found"],
  },
  { method: "GET", pattern: `${ORG}/webhook-secret`, path: () => "/webhook-secret" },
  { method: "POST", pattern: `${ORG}/webhook-secret`, path: () => "/webhook-secret" },
  { method: "GET", pattern: `${ORG}/overview`, path: () => "/overview" },
  { method: "GET", pattern: `${ORG}/sessions`, path: () => "/sessions?environment=all&limit=20" },
  { method: "GET", pattern: `${ORG}/sessions/[session_id]`, path: (f) => `/sessions/${f.sessionId}` },
  {
    method: "GET",
    pattern: `${ORG}/sessions/[session_id]/messages`,
    path: (f) => `/sessions/${f.sessionId}/messages`,
  },
  { method: "GET", pattern: `${ORG}/search`, path: (f) => `/search?q=${f.sessionId}` },
  { method: "GET", pattern: `${ORG}/users/[user_id]/timeline`, path: () => "/users/matrix-user/timeline" },
  {
    method: "POST",
    pattern: `${ORG}/agents/[agent_id]/chat`,
    path: (f) => `/agents/${f.conversational}/chat`,
    body: () => ({ message: "matrix" }),
  },
  {
    method: "POST",
    pattern: `${ORG}/agents/[agent_id]/runs`,
    path: (f) => `/agents/${f.workflow}/runs`,
    body: () => ({ inputs: { rows: [{ a: 1 }] } }),
  },
  { method: "GET", pattern: `${ORG}/agents/[agent_id]/files`, path: (f) => `/agents/${f.conversational}/files` },
  {
    method: "GET",
    pattern: `${ORG}/agents/[agent_id]/files/[file_id]`,
    path: async (f) => `/agents/${f.conversational}/files/${await f.freshFile()}`,
  },
  {
    method: "DELETE",
    pattern: `${ORG}/agents/[agent_id]/files/[file_id]`,
    path: async (f) => `/agents/${f.conversational}/files/${await f.freshFile()}`,
  },
  { method: "GET", pattern: `${ORG}/runs`, path: (f) => `/runs?agent_id=${f.workflow}&has_error=false` },
  { method: "GET", pattern: `${ORG}/runs/[run_id]`, path: (f) => `/runs/${f.runId}` },
  { method: "GET", pattern: `${ORG}/runs/[run_id]/items`, path: (f) => `/runs/${f.runId}/items?status=completed` },
  // The fixture's run is finished or about to be: a control answers it, or 409 invalid_state_transition.
  ...(["pause", "resume", "cancel", "retry"] as const).map((action): MemberRequest => ({
    method: "POST",
    pattern: `${ORG}/runs/[run_id]/${action}`,
    path: (f) => `/runs/${f.runId}/${action}`,
  })),
  {
    method: "GET",
    pattern: `${ORG}/runs/[run_id]/approvals`,
    path: async (f) => `/runs/${(await waiting(f)).runId}/approvals`,
  },
  {
    method: "POST",
    pattern: `${ORG}/runs/[run_id]/approvals/resolve`,
    path: async (f) => {
      decided = await f.freshReview();
      return `/runs/${decided.runId}/approvals/resolve`;
    },
    body: () => ({ exception_id: decided?.exceptionId, resolution: "approved" }),
  },
  {
    // A run that may still be going: 409 invalid_state_transition then (answers.test reruns a finished one).
    method: "POST",
    pattern: `${ORG}/runs/[run_id]/rerun`,
    path: (f) => `/runs/${f.runId}/rerun`,
    body: () => ({ inputs: { rows: [{ a: 2 }] } }),
  },
  { method: "GET", pattern: `${ORG}/reviews`, path: () => "/reviews?claimed=unclaimed&limit=5" },
  {
    method: "POST",
    pattern: `${ORG}/reviews/[exception_id]/claim`,
    path: async (f) => `/reviews/${(await waiting(f)).exceptionId}/claim`,
    body: () => ({ take_over: true }),
  },
  {
    method: "POST",
    pattern: `${ORG}/reviews/[exception_id]/resolve`,
    path: async (f) => `/reviews/${(await f.freshReview()).exceptionId}/resolve`,
    body: () => ({ resolution: "rejected", reason: "matrix" }),
  },
  {
    method: "POST",
    pattern: `${ORG}/reviews/bulk`,
    path: () => "/reviews/bulk",
    body: () => ({ exception_ids: ["exc_unknown"], resolution: "approved" }),
  },
  { method: "GET", pattern: `${ORG}/bulk-actions`, path: () => "/bulk-actions?limit=5" },
  { method: "POST", pattern: `${ORG}/bulk-actions`, path: () => "/bulk-actions", body: () => HARMLESS_BULK_ACTION },
  {
    method: "POST",
    pattern: `${ORG}/bulk-actions/preview`,
    path: () => "/bulk-actions/preview",
    body: () => HARMLESS_BULK_ACTION,
  },
  {
    method: "GET",
    pattern: `${ORG}/bulk-actions/[bulk_action_id]`,
    path: (f) => `/bulk-actions/${f.bulkActionId}`,
  },
  { method: "GET", pattern: `${ORG}/deliveries`, path: (f) => `/deliveries?agent_id=${f.conversational}` },
  { method: "GET", pattern: `${ORG}/deliveries/[delivery_id]`, path: (f) => `/deliveries/${f.deliveryId}` },
  {
    method: "POST",
    pattern: `${ORG}/deliveries/[delivery_id]/redeliver`,
    path: (f) => `/deliveries/${f.deliveryId}/redeliver`,
  },
];

const requests = new Map(REQUESTS.map((r) => [`${r.method} ${r.pattern}`, r]));

/** Every organization API route (its contract), with how to call it. */
export const MEMBER_ROUTES: MemberRoute[] = CONTRACTS.filter((c) => c.auth === "member").map((c) => {
  const request = requests.get(`${c.method} ${c.path}`);
  if (!request) throw new Error(`e2e/api/member-routes.ts: add a request for ${c.method} ${c.path} to REQUESTS`);
  return { ...request, admin: c.admin === true };
});

export const MEMBER_REQUEST_KEYS = REQUESTS.map((r) => `${r.method} ${r.pattern}`);
