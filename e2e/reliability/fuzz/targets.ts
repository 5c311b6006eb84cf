// What the fuzz suites aim at: every route of the build's route table (scripts/route-table.mjs, so
// that a new route is fuzzed without being listed) with its auth family, and the fixtures on the
// shared test server (keys, tokens, console sessions, an agent, a run waiting for review).
import path from "node:path";
import { expect } from "vitest";
import { matchRoute, routeEntries, type RouteEntry } from "../../../lib/http/routes";
import { routeTable } from "../../../scripts/route-table.mjs";
import { addMember, invite, signIn, type ConsoleSession } from "../../api/console";
import { CONSOLE_ROUTES, HARMLESS_BULK_ACTION, type ConsoleFixtures } from "../../api/console-routes";
import {
  call,
  createAgent,
  ctx,
  ECHO_AGENT,
  mintKey,
  revokeKey,
  SIMPLE_WORKFLOW,
  type RouteUnderTest,
} from "../../api/helpers";
import { ACCESS_KEY_ROUTES } from "../../api/routes";

const root = path.resolve(import.meta.dirname, "../../..");

export type Family = "access_key" | "user_token" | "console" | "public" | "auth_js" | "catch_all";

export interface RouteTarget {
  pattern: string;
  method: string;
  family: Family;
  /** Dynamic segments in order: `agent_id`, `...path`, `[...path]` (optional catch-all). */
  params: string[];
  /** The kind of agent the route is for, when the route lists say. */
  agentKind?: "conversational" | "workflow";
  /** Example bodies (from e2e/api/routes.ts, console-routes.ts and MANAGEMENT_EXAMPLES). */
  examples: ((f: Fixtures) => unknown)[];
  /** Ends the caller's console sessions (sign-out everywhere): the fuzz signs in again. */
  endsSessions: boolean;
}

/** Which authentication a route takes, from where it lives (ARCHITECTURE.md: public, management, console). */
export function familyOf(pattern: string): Family {
  if (pattern === "/api/[...path]") return "catch_all";
  if (pattern.startsWith("/api/auth/")) return "auth_js";
  if (pattern.startsWith("/api/console/")) return "console";
  if (pattern.startsWith("/api/v1/")) return "user_token";
  if (pattern.startsWith("/api/agents/") || pattern.startsWith("/api/workflows/")) return "access_key";
  return "public";
}

/** Management API examples (the public and console ones come from the route lists of e2e/api). */
const MANAGEMENT_EXAMPLES: Record<string, unknown[]> = {
  "POST /api/v1/organizations/[org_id]/access-keys": [{ name: "fuzz", permissions: ["agents:invoke"] }],
  "POST /api/v1/organizations/[org_id]/agents": [ECHO_AGENT, SIMPLE_WORKFLOW],
  "PATCH /api/v1/organizations/[org_id]/agents/[agent_id]": [{ name: "fuzzed" }, { runtime: { type: "echo" } }],
  // What the console sends (these routes were the console API's until issue 31 moved them here).
  "POST /api/v1/organizations/[org_id]/agents/[agent_id]/chat": [{ message: "fuzz" }],
  "POST /api/v1/organizations/[org_id]/agents/[agent_id]/runs": [{ inputs: { rows: [{ a: 1 }] } }],
  "POST /api/v1/organizations/[org_id]/bulk-actions": [HARMLESS_BULK_ACTION],
  "POST /api/v1/organizations/[org_id]/bulk-actions/preview": [HARMLESS_BULK_ACTION],
  "POST /api/v1/organizations/[org_id]/reviews/bulk": [{ exception_ids: ["exc_unknown"], resolution: "approved" }],
  "POST /api/v1/organizations/[org_id]/runs/[run_id]/rerun": [{ inputs: { rows: [{ a: 2 }] } }],
};

/** Every (route, method) of the build's route table, with what the route lists of e2e/api add. */
export async function routeTargets(): Promise<RouteTarget[]> {
  const table: RouteEntry[] = routeEntries(await routeTable(root));
  const examples = new Map<string, ((f: Fixtures) => unknown)[]>(
    Object.entries(MANAGEMENT_EXAMPLES).map(([k, list]) => [k, list.map((b) => () => b)]),
  );
  const kinds = new Map<string, Set<string>>([
    // The test console's chat and manual run take one kind of agent (the other is refused first).
    ["POST /api/v1/organizations/[org_id]/agents/[agent_id]/chat", new Set(["conversational"])],
    ["POST /api/v1/organizations/[org_id]/agents/[agent_id]/runs", new Set(["workflow"])],
  ]);
  const add = (key: string, body: (f: Fixtures) => unknown) => examples.set(key, [...(examples.get(key) ?? []), body]);
  for (const r of ACCESS_KEY_ROUTES as RouteUnderTest[]) {
    const entry = matchRoute(table, r.path("agt_0fuzz0000000000000000"));
    if (!entry) throw new Error(`e2e/api/routes.ts: ${r.name} reaches no route`);
    const key = `${r.method} ${entry.pattern}`;
    kinds.set(key, (kinds.get(key) ?? new Set()).add(r.kind ?? "conversational"));
    if (r.body !== undefined) add(key, () => r.body);
  }
  const endsSessions = new Set<string>();
  for (const r of CONSOLE_ROUTES) {
    const body = r.body;
    if (body) add(`${r.method} ${r.pattern}`, (f) => body(f.console));
    if (r.endsSessions) endsSessions.add(`${r.method} ${r.pattern}`);
  }
  return table.flatMap((entry) =>
    entry.methods.map((method): RouteTarget => {
      const key = `${method} ${entry.pattern}`;
      const kind = kinds.get(key);
      return {
        pattern: entry.pattern,
        method,
        family: familyOf(entry.pattern),
        params: [...entry.pattern.matchAll(/\[+(\.\.\.)?([^\]]+)\]+/g)].map((m) => m[0]),
        agentKind: kind?.size === 1 ? ([...kind][0] as "conversational" | "workflow") : undefined,
        examples: examples.get(key) ?? [],
        endsSessions: endsSessions.has(key),
      };
    }),
  );
}

export interface Fixtures {
  base: string;
  host: string;
  orgA: string;
  orgB: string;
  tokens: { admin: string; support: string; orgB: string };
  keys: { valid: string; noInvoke: string; revoked: string; otherOrg: string };
  agents: { conversational: string; workflow: string; otherConversational: string; otherWorkflow: string };
  sessionId: string;
  messageIds: string[];
  otherSessionId: string;
  runIds: string[];
  otherRunId: string;
  exceptionId: string;
  fileId: string;
  uploadId: string;
  downloadToken: string;
  /** For PATCH and DELETE: resources the fuzz may change or remove without disturbing the rest. */
  victims: { agents: string[]; keys: string[]; members: string[]; invitations: string[] };
  cookies: { admin: string; support: string };
  /** Signs the fuzz's console users in again (after a fuzzed sign-out-everywhere). */
  refreshSessions(): Promise<void>;
  console: ConsoleFixtures;
}

const REVIEW_WORKFLOW = {
  name: "fuzz review",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "array", required: true } },
    items: { from: "rows" },
    steps: [{ id: "look", type: "review", when: "item.review" }],
    output: { filename: "out.csv", format: "csv" },
  },
};

async function waitForRun(key: string, agentId: string, runId: string, done: (r: any) => boolean) {
  for (let i = 0; i < 600; i++) {
    const res = await call("GET", `/api/agents/${agentId}/runs/${runId}`, { auth: key });
    if (res.status === 200 && done(res.body)) return res.body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${runId} did not settle`);
}

/** Keys, agents, a session, runs, a file, an unfinished tus upload and console users for the fuzz. */
export async function setupFixtures(): Promise<Fixtures> {
  const { orgA, orgB, supportA, baseUrl } = ctx();
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const valid = (await mintKey(orgA, ["agents:invoke"], "fuzz key")).key;
  const noInvoke = (await mintKey(orgA, [], "fuzz no invoke")).key;
  const revoked = await mintKey(orgA, ["agents:invoke"], "fuzz revoked");
  await revokeKey(orgA, revoked.key_id);
  const otherOrg = (await mintKey(orgB)).key;
  const conversational = (await createAgent(orgA, ECHO_AGENT)).agent_id;
  const workflow = (await createAgent(orgA, REVIEW_WORKFLOW)).agent_id;
  const otherConversational = (await createAgent(orgB, ECHO_AGENT)).agent_id;
  const otherWorkflow = (await createAgent(orgB, SIMPLE_WORKFLOW)).agent_id;

  const chat = await call("POST", `/api/agents/webhook/${conversational}`, { auth: valid, body: { message: "hi" } });
  expect(chat.status, chat.text).toBe(200);
  const messages = await call("GET", `/api/agents/${conversational}/sessions/${chat.body.session_id}/messages`, {
    auth: valid,
  });
  const otherChat = await call("POST", `/api/agents/webhook/${otherConversational}`, {
    auth: otherOrg,
    body: { message: "hi" },
  });
  const done = await call("POST", `/api/agents/webhook/${workflow}`, { auth: valid, body: { rows: [{ a: 1 }] } });
  const review = await call("POST", `/api/agents/webhook/${workflow}`, {
    auth: valid,
    body: { rows: [{ review: true }, { review: true }] },
  });
  const otherRun = await call("POST", `/api/agents/webhook/${otherWorkflow}`, {
    auth: otherOrg,
    body: { rows: [{ a: 1 }] },
  });
  const finished = await waitForRun(valid, workflow, done.body.run_id, (r) => r.status === "completed");
  await waitForRun(valid, workflow, review.body.run_id, (r) => r.status === "needs_review");
  const approvals = await call("GET", `/api/agents/${workflow}/runs/${review.body.run_id}/approvals`, { auth: valid });
  const downloadUrl = new URL(finished.output_files[0].url);

  const form = new FormData();
  form.append("file", new Blob(["a,b\n1,2\n"], { type: "text/csv" }), "fuzz.csv");
  const upload = await call("POST", `/api/agents/${conversational}/upload`, { auth: valid, raw: form });
  const tus = await fetch(`${baseUrl}/api/agents/${conversational}/upload/tus`, {
    method: "POST",
    headers: { authorization: `Bearer ${valid}`, "tus-resumable": "1.0.0", "upload-length": "1000" },
  });
  expect(tus.status).toBe(201);

  const victims = {
    agents: await Promise.all([1, 2, 3].map(async () => (await createAgent(orgA, ECHO_AGENT)).agent_id)),
    keys: await Promise.all([1, 2, 3].map(async () => (await mintKey(orgA, ["agents:invoke"], "victim")).key_id)),
    members: [] as string[],
    invitations: [] as string[],
  };
  // The fuzz's own console users (the suites' admin-a keeps its sessions and role).
  const adminA = await signIn("admin-a@example.com");
  const member = (email: string, role: string) => addMember(adminA, email, role, "fuzz-password-123");
  const adminEmail = `fuzz-admin-${stamp}@example.com`;
  const supportEmail = `fuzz-support-${stamp}@example.com`;
  await member(adminEmail, "admin");
  await member(supportEmail, "support");
  for (let i = 0; i < 3; i++) victims.members.push(await member(`fuzz-victim-${i}-${stamp}@example.com`, "support"));
  for (let i = 0; i < 3; i++)
    victims.invitations.push((await invite(adminA, `fuzz-invited-${i}-${stamp}@example.com`)).invitation_id);

  let admin: ConsoleSession;
  let support: ConsoleSession;
  const f: Fixtures = {
    base: baseUrl,
    host: new URL(baseUrl).host,
    orgA: orgA.organization_id,
    orgB: orgB.organization_id,
    tokens: { admin: orgA.user_token, support: supportA.user_token, orgB: orgB.user_token },
    keys: { valid, noInvoke, revoked: revoked.key, otherOrg },
    agents: { conversational, workflow, otherConversational, otherWorkflow },
    sessionId: chat.body.session_id,
    messageIds: messages.body.messages.map((m: { message_id: string }) => m.message_id),
    otherSessionId: otherChat.body.session_id,
    runIds: [done.body.run_id, review.body.run_id],
    otherRunId: otherRun.body.run_id,
    exceptionId: approvals.body[0]?.exception_id ?? approvals.body.approvals?.[0]?.exception_id,
    fileId: upload.body.file_id,
    uploadId: tus.headers.get("location")!.split("/").pop()!,
    downloadToken: downloadUrl.searchParams.get("token")!,
    victims,
    cookies: { admin: "", support: "" },
    async refreshSessions() {
      admin = await signIn(adminEmail, "fuzz-password-123");
      support = await signIn(supportEmail, "fuzz-password-123");
      f.cookies = { admin: admin.cookie, support: support.cookie };
    },
    console: {
      orgA: orgA.organization_id,
      orgB: orgB.organization_id,
      conversational,
      workflow,
      sessionId: chat.body.session_id,
      runId: done.body.run_id,
      supportUserId: victims.members[0]!,
      // No callback is configured here: the delivery routes answer 404 delivery_not_found.
      deliveryId: "dlv_fuzz",
      freshKey: async () => victims.keys[0]!,
      freshMember: async () => victims.members[0]!,
      freshInvitation: async () => victims.invitations[0]!,
      freshAgent: async () => victims.agents[0]!,
      freshSecret: async () => "fuzz-secret",
      // None started here: the bulk action route answers 404 bulk_action_not_found.
      bulkActionId: "bulk_fuzz",
      // The fuzz's run waiting for review (a decision may have settled it: then the routes answer their 404s or 409s).
      freshReview: async () => ({ runId: review.body.run_id, exceptionId: f.exceptionId }),
      freshView: async () => "view_fuzz",
      freshFile: async () => upload.body.file_id,
      // None made here: the rule routes answer 404 alert_rule_not_found.
      freshRule: async () => "alr_fuzz",
      // The fuzz's victim agents: version routes answer their 409s (no draft, no rollout) or act on them.
      freshDraftAgent: async () => victims.agents[0]!,
      freshRolloutAgent: async () => victims.agents[0]!,
      // None made here: the evaluation routes answer 404 evaluation_not_found.
      evaluation: async () => ({ agentId: conversational, evaluationId: "eval_fuzz", caseId: "evc_fuzz" }),
      freshEvaluation: async () => ({ agentId: conversational, evaluationId: "eval_fuzz" }),
    },
  };
  await f.refreshSessions();
  expect(f.exceptionId).toMatch(/^exc_/);
  return f;
}
