// Every route of the console API, for the role matrix (e2e/security/console-matrix.test.ts): the
// list, and who may call each (admin only, or signed out too), come from the route contracts
// (app/api/contracts.ts); what is kept here is how to call each one (REQUESTS). A console route
// without a request here fails at load: add one when you add a route.
import { expect } from "vitest";
import { CONTRACTS } from "../../app/api/contracts";
import { addMember, invite, type ConsoleSession } from "./console";
import { call, createAgent, ctx, ECHO_AGENT, mintKey, SIMPLE_WORKFLOW } from "./helpers";

export type Expect = "ok" | "forbidden";

export interface ConsoleFixtures {
  orgA: string;
  orgB: string;
  conversational: string;
  workflow: string;
  sessionId: string;
  runId: string;
  supportUserId: string;
  /** A completion callback delivery of org A (its trigger named a callback_url). */
  deliveryId: string;
  /** A key minted for this call (DELETE revokes it). */
  freshKey(): Promise<string>;
  /** A member who joined for this call through an invitation (DELETE removes them). */
  freshMember(): Promise<string>;
  /** A pending invitation of org A made for this call (DELETE revokes it). */
  freshInvitation(): Promise<string>;
  /** A conversational agent of org A made for this call (DELETE archives it). */
  freshAgent(): Promise<string>;
  /** An organization secret of org A made for this call (DELETE deletes it): its name. */
  freshSecret(): Promise<string>;
  /** A bulk action of org A (a retry of its completed runs: it moves none). */
  bulkActionId: string;
  /** A run of org A waiting for review on one item, made for this call: its id and the item's exception id. */
  freshReview(): Promise<{ runId: string; exceptionId: string }>;
  /** A personal saved view of org A's admin made for this call (DELETE deletes it). */
  freshView(): Promise<string>;
  /** A file uploaded to the conversational agent for this call (DELETE deletes it): its id. */
  freshFile(): Promise<string>;
  /** An alert rule of org A made for this call (DELETE deletes it): its id. */
  freshRule(): Promise<string>;
  /** A conversational agent of org A with a draft (version 2) on top of version 1. */
  freshDraftAgent(): Promise<string>;
  /** A conversational agent of org A with version 2 rolling out to 10 %. */
  freshRolloutAgent(): Promise<string>;
  /** An evaluation of org A's conversational agent (one case), made once: its agent, id and case. */
  evaluation(): Promise<{ agentId: string; evaluationId: string; caseId: string }>;
  /** A running evaluation of org A made for this call (its candidate answers in 20 s: cancel stops it). */
  freshEvaluation(): Promise<{ agentId: string; evaluationId: string }>;
}

export interface ConsoleRoute extends ConsoleRequest {
  method: string;
  /** The route's pattern, as under app/ (its contract's path). */
  pattern: string;
  /** Admin only (its contract says so): support gets 403 forbidden. */
  admin?: boolean;
  /** Signed out it still answers (its contract's auth is consoleOpen: sign-in, sign-out, accepting). */
  public?: boolean;
}

/** How to call one console route: its concrete path and body, and what to expect across organizations. */
export interface ConsoleRequest {
  method: string;
  /** The route's pattern: with the method, the key of its contract. */
  pattern: string;
  path: (f: ConsoleFixtures) => string | Promise<string>;
  body?: (f: ConsoleFixtures) => unknown;
  /** For an admin of another organization: the 404 code when the path names org A's resource. */
  otherOrg?: string;
  /** Ends the caller's sessions: checked signed out and cross-site only. */
  endsSessions?: boolean;
}

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
const uniqueEmail = (what: string) => `${what}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;

/**
 * Org A's resources the console requests name, made through the public and management APIs (and
 * `adminA`, an admin of org A signed in to the console): agents, a session, a run, a delivery.
 */
export async function consoleFixtures(adminA: ConsoleSession): Promise<ConsoleFixtures> {
  const { orgA, orgB } = ctx();
  const conversational = (await createAgent(orgA, ECHO_AGENT)).agent_id;
  const workflow = (await createAgent(orgA, SIMPLE_WORKFLOW)).agent_id;
  const key = (await mintKey(orgA)).key;
  // The reply's completion callback goes to an address that never answers: it stays in the log.
  const trigger = await call("POST", `/api/agents/webhook/${conversational}`, {
    auth: key,
    body: { message: "hi", callback_url: "https://callbacks.invalid/hook" },
  });
  const run = await call("POST", `/api/agents/webhook/${workflow}`, { auth: key, body: { rows: [{ a: 1 }] } });
  const members = await adminA.call("GET", `/api/v1/organizations/${orgA.organization_id}/members`);
  const deliveries = await adminA.call(
    "GET",
    `/api/v1/organizations/${orgA.organization_id}/deliveries?agent_id=${conversational}`,
  );
  expect(deliveries.body.deliveries, "the trigger's completion callback is logged").toHaveLength(1);
  const bulk = await adminA.call(
    "POST",
    `/api/v1/organizations/${orgA.organization_id}/bulk-actions`,
    HARMLESS_BULK_ACTION,
  );
  expect(bulk.status, bulk.text).toBe(202);
  return {
    orgA: orgA.organization_id,
    orgB: orgB.organization_id,
    conversational,
    workflow,
    sessionId: trigger.body.session_id,
    runId: run.body.run_id,
    deliveryId: deliveries.body.deliveries[0].id,
    supportUserId: members.body.members.find((m: any) => m.email === "support-a@example.com").user_id,
    freshKey: async () => (await mintKey(orgA)).key_id,
    freshAgent: async () => (await createAgent(orgA, ECHO_AGENT)).agent_id,
    freshSecret: async () => {
      const name = `fresh-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      const res = await call("PUT", `/api/v1/organizations/${orgA.organization_id}/secrets/${name}`, {
        auth: orgA.user_token,
        body: { value: "fresh-secret-value" },
      });
      expect(res.status).toBe(201);
      return name;
    },
    freshMember: () => addMember(adminA, uniqueEmail("gone")),
    freshInvitation: async () => (await invite(adminA, uniqueEmail("revoked"))).invitation_id,
    bulkActionId: bulk.body.bulk_action_id,
    freshReview: async () => {
      reviewAgent ??= createAgent(orgA, REVIEWED_WORKFLOW).then((a) => a.agent_id as string);
      return waitingForReview(await reviewAgent, key);
    },
    freshView: async () => {
      const res = await adminA.call("POST", `/api/v1/organizations/${orgA.organization_id}/views`, {
        list: "runs",
        name: `fresh ${unique()}`,
      });
      expect(res.status).toBe(201);
      return res.body.view_id;
    },
    freshFile: async () => {
      const form = new FormData();
      form.append("file", new Blob(["a,b\n1,2\n"], { type: "text/csv" }), "fresh.csv");
      const res = await call("POST", `/api/agents/${conversational}/upload`, { auth: key, raw: form });
      expect(res.status, res.text).toBe(200);
      return res.body.file_id;
    },
    freshRule: async () => {
      const res = await call("POST", `/api/v1/organizations/${orgA.organization_id}/alert-rules`, {
        auth: orgA.user_token,
        body: { name: `fresh ${unique()}`, kind: "latency_p95", threshold: 10_000, url: "https://hooks.invalid/a" },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.rule_id;
    },
    freshDraftAgent: () => draftAgent(orgA),
    evaluation: () => (shared ??= sharedEvaluation(orgA, conversational)),
    freshEvaluation: async () => {
      const agentId = (await createAgent(orgA, ECHO_AGENT)).agent_id;
      const turn = await call("POST", `/api/agents/webhook/${agentId}`, {
        auth: key,
        body: { message: "evaluate me" },
      });
      expect(turn.status, turn.text).toBe(200);
      const draft = await call("PATCH", `/api/v1/organizations/${orgA.organization_id}/agents/${agentId}`, {
        auth: orgA.user_token,
        body: { runtime: { type: "echo", delay_ms: 20_000 }, base_version: 1 },
      });
      expect(draft.status, draft.text).toBe(200);
      const made = await createEvaluation(orgA, agentId, "draft");
      return { agentId, evaluationId: made.evaluation_id };
    },
    freshRolloutAgent: async () => {
      const agentId = await draftAgent(orgA);
      const res = await call("POST", `/api/v1/organizations/${orgA.organization_id}/agents/${agentId}/publish`, {
        auth: orgA.user_token,
        body: { rollout_percent: 10 },
      });
      expect(res.status, res.text).toBe(200);
      return agentId;
    },
  };
}

let shared: Promise<{ agentId: string; evaluationId: string; caseId: string }> | undefined;

/** An evaluation of `agentId` (its published version on its latest session), made through the organization API. */
async function createEvaluation(org: ReturnType<typeof ctx>["orgA"], agentId: string, candidate: "draft" | number) {
  const res = await call("POST", `/api/v1/organizations/${org.organization_id}/agents/${agentId}/evaluations`, {
    auth: org.user_token,
    body: { candidate, source: { kind: "sessions", limit: 1 } },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function sharedEvaluation(org: ReturnType<typeof ctx>["orgA"], agentId: string) {
  const made = await createEvaluation(org, agentId, 1);
  const cases = await call(
    "GET",
    `/api/v1/organizations/${org.organization_id}/agents/${agentId}/evaluations/${made.evaluation_id}/cases`,
    { auth: org.user_token },
  );
  expect(cases.status, cases.text).toBe(200);
  return { agentId, evaluationId: made.evaluation_id as string, caseId: cases.body.cases[0].case_id as string };
}

/** A conversational agent of `org` with a draft, version 2 (a slower echo), on top of version 1. */
async function draftAgent(org: ReturnType<typeof ctx>["orgA"]): Promise<string> {
  const agentId = (await createAgent(org, ECHO_AGENT)).agent_id;
  const res = await call("PATCH", `/api/v1/organizations/${org.organization_id}/agents/${agentId}`, {
    auth: org.user_token,
    body: { runtime: { type: "echo", delay_ms: 1 }, base_version: 1 },
  });
  expect(res.status, res.text).toBe(200);
  return agentId;
}

let reviewAgent: Promise<string> | undefined;

/** A workflow whose every item waits for a person's decision. */
const REVIEWED_WORKFLOW = {
  name: "matrix review",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "array", required: true } },
    items: { from: "rows" },
    steps: [{ id: "check", type: "review", when: "true", message: "check it" }],
  },
};

/** A run of `agentId` with one item, once it waits for review: its id and the item's exception id. */
async function waitingForReview(agentId: string, key: string) {
  const res = await call("POST", `/api/agents/webhook/${agentId}`, { auth: key, body: { rows: [{ n: 1 }] } });
  expect(res.status, res.text).toBe(202);
  const runId = res.body.run_id as string;
  for (const deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 50))) {
    const run = await call("GET", `/api/agents/${agentId}/runs/${runId}`, { auth: key });
    if (run.body.status === "needs_review") break;
    if (Date.now() > deadline) throw new Error(`run ${runId} never waited for review: ${run.text}`);
  }
  const open = await call("GET", `/api/agents/${agentId}/runs/${runId}/approvals`, { auth: key });
  expect(open.body, open.text).toHaveLength(1);
  return { runId, exceptionId: open.body[0].exception_id as string };
}

/** A bulk action that changes nothing: retry is allowed from failed only (it names no id either). */
export const HARMLESS_BULK_ACTION = { action: "retry", selection: { filter: { status: "completed" } } };

export const REQUESTS: ConsoleRequest[] = [
  {
    method: "POST",
    pattern: "/api/console/auth/sign-in",
    path: () => "/api/console/auth/sign-in",
    body: () => ({ email: "nobody@example.com", password: "x" }),
  },
  {
    method: "POST",
    pattern: "/api/console/auth/sign-out",
    path: () => "/api/console/auth/sign-out",
    endsSessions: true,
  },
  {
    method: "POST",
    pattern: "/api/console/auth/sign-out-everywhere",
    path: () => "/api/console/auth/sign-out-everywhere",
    endsSessions: true,
  },
  { method: "GET", pattern: "/api/console/me", path: () => "/api/console/me" },
  {
    method: "POST",
    pattern: "/api/console/org",
    path: () => "/api/console/org",
    body: (f) => ({ organization_id: f.orgA }),
    otherOrg: "organization_not_found",
  },
  {
    // Signed out too: the invited person may have no account yet. A wrong token here.
    method: "POST",
    pattern: "/api/console/invitations/accept",
    path: () => "/api/console/invitations/accept",
    body: () => ({ token: `it_${"M".repeat(43)}`, password: "matrix-password" }),
  },
  { method: "GET", pattern: "/api/console/changes", path: () => "/api/console/changes?topics=runs,reviews" },
];

/** An export of org A's sessions made through the management API, once it succeeded: its id and link token. */
export async function finishedExport(orgId: string): Promise<{ id: string; token: string }> {
  const base = `/api/v1/organizations/${orgId}/exports`;
  const auth = ctx().orgA.user_token;
  const created = await call("POST", base, { auth, body: { kind: "sessions", format: "csv" } });
  expect(created.status, created.text).toBe(201);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await call("GET", `${base}/${created.body.export_id}`, { auth });
    if (res.body.status === "succeeded") {
      return { id: res.body.export_id, token: new URL(res.body.download_url).searchParams.get("token")! };
    }
    if (res.body.status === "failed" || Date.now() > deadline) throw new Error(`export ${res.text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const requests = new Map(REQUESTS.map((r) => [`${r.method} ${r.pattern}`, r]));

/** Every console route (its contract), with how to call it. */
export const CONSOLE_ROUTES: ConsoleRoute[] = CONTRACTS.filter((c) => c.path.startsWith("/api/console/")).map((c) => {
  const request = requests.get(`${c.method} ${c.path}`);
  if (!request) throw new Error(`e2e/api/console-routes.ts: add a request for ${c.method} ${c.path} to REQUESTS`);
  return { ...request, admin: c.admin === true, public: c.auth === "consoleOpen" };
});
