// Every route of the contracts' index (app/api/contracts.ts) called at least once with a valid
// request, each answer held to its contract by `call` (./answers.ts): a 2xx JSON answer parsed with
// the contract's response schema for its status. The last test fails for a contract no request
// here reached, so a new route needs its request (ARCHITECTURE.md, Route contracts).
import { beforeAll, describe, expect, it } from "vitest";
import { CONTRACTS } from "../../app/api/contracts";
import { jsonSchemaOf } from "../../lib/http/contract";
import { CHECKED, contractOf } from "./answers";
import {
  acceptAsNew,
  consoleSession,
  cookiesOf,
  orgPath,
  PASSWORD,
  signIn,
  tokenOf,
  type ConsoleSession,
} from "./console";
import {
  consoleFixtures,
  finishedExport,
  HARMLESS_BULK_ACTION,
  REQUESTS,
  type ConsoleFixtures,
  type ConsoleRequest,
} from "./console-routes";
import { call, createAgent, ctx, ECHO_AGENT, mintKey, type ApiResponse } from "./helpers";

/** `METHOD pattern` -> the statuses its requests here were answered. */
const answered = new Map<string, number[]>();

function note(method: string, path: string, res: ApiResponse): ApiResponse {
  const contract = contractOf(method, new URL(path, "http://x").pathname);
  if (contract) {
    const key = `${contract.method} ${contract.path}`;
    answered.set(key, [...(answered.get(key) ?? []), res.status]);
  }
  return res;
}

/** A call that must succeed (2xx or 3xx): the route's answer to a valid request. */
async function ok(
  method: string,
  path: string,
  opts: Parameters<typeof call>[2] = {},
  session?: ConsoleSession,
): Promise<ApiResponse> {
  const res = session ? await session.call(method, path, opts.body, opts.headers) : await call(method, path, opts);
  note(method, path, res);
  expect(res.status, `${method} ${path}: ${res.text.slice(0, 300)}`).toBeLessThan(400);
  return res;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let key: string;
const agents = { chat: "", flow: "", review: "", hold: "", fatal: "" };

const wf = (name: string, workflow: unknown) => ({ name, kind: "workflow", runtime: { type: "echo" }, workflow });
const rowsInput = { rows: { type: "array", required: true } };

async function runUntil(agent: string, runId: string, done: (status: string) => boolean) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await call("GET", `/api/agents/${agent}/runs/${runId}`, { auth: key });
    if (done(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`run ${runId} stayed ${res.body.status}`);
    await sleep(50);
  }
}

async function startRun(agent: string, body: unknown) {
  const res = await ok("POST", `/api/agents/webhook/${agent}`, { auth: key, body });
  return res.body.run_id as string;
}

/** A workflow agent of org A: one item per row of `rows`, through `steps`. */
async function workflowAgent(name: string, steps: unknown[], more: Record<string, unknown> = {}) {
  const workflow = { inputs: rowsInput, items: { from: "rows" }, steps, ...more };
  return (await createAgent(ctx().orgA, wf(name, workflow))).agent_id;
}

beforeAll(async () => {
  key = (await mintKey(ctx().orgA, ["agents:invoke"], "answers key")).key;
  agents.chat = (await createAgent(ctx().orgA, ECHO_AGENT)).agent_id;
  agents.flow = await workflowAgent("answers flow", [{ id: "t", type: "transform", expression: "item" }], {
    output: { filename: "out.jsonl", format: "jsonl" },
  });
  agents.review = await workflowAgent("answers review", [
    { id: "look", type: "review", when: "true", message: "look" },
  ]);
  // A run that stays `running` until it is controlled: pause, resume and cancel apply.
  agents.hold = await workflowAgent("answers hold", [{ id: "h", type: "wait", ms: 120_000 }], {
    inputs: {},
    items: undefined,
  });
  agents.fatal = await workflowAgent("answers fatal", [
    { id: "boom", type: "fail", when: "true", fatal: true, message: "bad row" },
  ]);
});

describe("every route's answer is its contract's", () => {
  it("service routes: health, readiness, metrics, the OpenAPI document; unknown API paths answer 404", async () => {
    await ok("GET", "/api/health");
    await ok("GET", "/api/ready");
    await ok("GET", "/api/metrics");
    await ok("GET", "/api/openapi.json");
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      for (const path of ["/api", "/api/no/such/route"]) {
        const res = note(method, path, await call(method, path));
        expect(res.status, `${method} ${path}`).toBe(404);
      }
    }
  });

  it("management API: access keys, agents, secrets, retention, exports, usage, alerts, members, audit, views", async () => {
    const { orgA } = ctx();
    const org = `/api/v1/organizations/${orgA.organization_id}`;
    const auth = orgA.user_token;
    const minted = await ok("POST", `${org}/access-keys`, { auth, body: { name: "answers" } });
    await ok("GET", `${org}/access-keys`, { auth });
    await ok("PATCH", `${org}/access-keys/${minted.body.key_id}`, { auth, body: { name: "answers 2" } });
    await ok("GET", `${org}/access-keys/${minted.body.key_id}`, { auth });
    await ok("GET", `${org}/access-keys/${minted.body.key_id}/usage-preview`, { auth });
    const rolled = await ok("POST", `${org}/access-keys/${minted.body.key_id}/roll`, {
      auth,
      body: { grace_period_seconds: 3600 },
    });
    await ok("DELETE", `${org}/access-keys/${rolled.body.key_id}`, { auth });
    await ok("DELETE", `${org}/access-keys/${minted.body.key_id}`, { auth });
    const agent = await ok("POST", `${org}/agents`, { auth, body: { ...ECHO_AGENT, name: "answers agent" } });
    await ok("GET", `${org}/agents`, { auth });
    await ok("GET", `${org}/agents/${agent.body.agent_id}`, { auth });
    await ok("PATCH", `${org}/agents/${agent.body.agent_id}`, { auth, body: { name: "answers agent 2" } });
    // Versions: a draft, its preview and publish, a canary changed and rolled back, a restore, a discard.
    const a = `${org}/agents/${agent.body.agent_id}`;
    await ok("PATCH", a, { auth, body: { runtime: { type: "echo", delay_ms: 1 }, base_version: 1 } });
    await ok("GET", `${a}/versions`, { auth });
    await ok("GET", `${a}/versions/2`, { auth });
    await ok("GET", `${a}/versions/1/diff?to=2`, { auth });
    await ok("POST", `${a}/publish`, { auth, body: { dry_run: true } });
    await ok("POST", `${a}/publish`, { auth, body: { rollout_percent: 20 } });
    await ok("GET", `${a}/rollout`, { auth });
    await ok("POST", `${a}/rollout`, { auth, body: { percent: 40 } });
    await ok("POST", `${a}/rollback`, { auth });
    await ok("POST", `${a}/versions/2/restore`, { auth });
    await ok("DELETE", `${a}/draft`, { auth });
    await ok("DELETE", `${org}/agents/${agent.body.agent_id}`, { auth });
    const name = `answers-${Date.now()}`;
    await ok("PUT", `${org}/secrets/${name}`, { auth, body: { value: "answers-secret-value" } });
    await ok("PUT", `${org}/secrets/${name}`, { auth, body: { value: "answers-secret-value-2" } });
    await ok("GET", `${org}/secrets`, { auth });
    await ok("DELETE", `${org}/secrets/${name}`, { auth });
    // Organization B's retention: the retention suite changes A's.
    const { orgB } = ctx();
    const orgBPath = `/api/v1/organizations/${orgB.organization_id}/retention`;
    await ok("GET", `${orgBPath}?preview_days=30`, { auth: orgB.user_token });
    await ok("PATCH", orgBPath, { auth: orgB.user_token, body: { retention_days: null } });
    // Exports: one made and listed, then read until it succeeded and downloaded by its link.
    await ok("POST", `${org}/exports`, { auth, body: { kind: "audit", format: "jsonl" } });
    await ok("GET", `${org}/exports`, { auth });
    const done = await finishedExport(orgA.organization_id);
    await ok("GET", `${org}/exports/${done.id}`, { auth });
    await ok("GET", `${org}/exports/${done.id}/download?token=${done.token}`, { auth });
    await ok("GET", `${org}/usage?group_by=agent`, { auth });
    // Members and invitations (one accepted, then removed), the audit log, saved views, the signing secret.
    const members = await ok("GET", `${org}/members?limit=50`, { auth });
    const support = members.body.members.find((m: { email: string }) => m.email === "support-a@example.com");
    await ok("PATCH", `${org}/members/${support.user_id}`, { auth, body: { role: "support" } });
    const email = () => `answers-member-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
    const invited = await ok("POST", `${org}/invitations`, { auth, body: { email: email(), role: "support" } });
    await ok("GET", `${org}/invitations`, { auth });
    await ok("DELETE", `${org}/invitations/${invited.body.invitation_id}`, { auth });
    const joining = await ok("POST", `${org}/invitations`, { auth, body: { email: email(), role: "support" } });
    const joined = (await acceptAsNew(tokenOf(joining.body.url))).res;
    expect(joined.status, joined.text).toBe(200);
    await ok("DELETE", `${org}/members/${joined.body.member.user_id}`, { auth });
    await ok("GET", `${org}/audit?action=member.*&limit=5`, { auth });
    const view = await ok("POST", `${org}/views`, { auth, body: { list: "runs", name: "answers" } });
    await ok("GET", `${org}/views?list=runs`, { auth });
    await ok("PATCH", `${org}/views/${view.body.view_id}`, { auth, body: { name: "answers 2" } });
    await ok("DELETE", `${org}/views/${view.body.view_id}`, { auth });
    await ok("GET", `${org}/webhook-secret`, { auth });
    await ok("POST", `${org}/webhook-secret`, { auth });
    // Alerts: a rule made, read, changed, tested and deleted; the history.
    const rule = await ok("POST", `${org}/alert-rules`, {
      auth,
      body: { name: "answers", kind: "latency_p95", threshold: 5000, url: "https://hooks.example.com/answers" },
    });
    await ok("GET", `${org}/alert-rules`, { auth });
    await ok("GET", `${org}/alert-rules/${rule.body.rule_id}`, { auth });
    await ok("PATCH", `${org}/alert-rules/${rule.body.rule_id}`, { auth, body: { enabled: false } });
    await ok("POST", `${org}/alert-rules/${rule.body.rule_id}/test`, { auth });
    await ok("GET", `${org}/alert-events?rule_id=${rule.body.rule_id}`, { auth });
    await ok("DELETE", `${org}/alert-rules/${rule.body.rule_id}`, { auth });
  });

  it("conversations: a trigger (waiting and async), sessions and messages", async () => {
    const reply = await ok("POST", `/api/agents/webhook/${agents.chat}`, { auth: key, body: { message: "hi" } });
    const session = reply.body.session_id as string;
    const accepted = await ok("POST", `/api/agents/webhook/${agents.chat}`, {
      auth: key,
      body: { message: "again", session_id: session },
      headers: { prefer: "respond-async" },
    });
    const base = `/api/agents/${agents.chat}/sessions`;
    await ok("GET", base, { auth: key });
    await ok("GET", `${base}/${session}`, { auth: key });
    await ok("GET", `${base}/${session}/messages`, { auth: key });
    await ok("GET", `${base}/${session}/messages/${accepted.body.message_id}`, {
      auth: key,
      headers: { prefer: "wait=10" },
    });
  });

  it("organization API: sessions across agents, search, a timeline, the overview, the test console, files", async () => {
    const { orgA } = ctx();
    const org = `/api/v1/organizations/${orgA.organization_id}`;
    const auth = orgA.user_token;
    const chat = await ok("POST", `${org}/agents/${agents.chat}/chat`, { auth, body: { message: "answers" } });
    const session = chat.body.session_id as string;
    await ok("GET", `${org}/sessions?environment=draft&agent_id=${agents.chat}`, { auth });
    await ok("GET", `${org}/sessions/${session}`, { auth });
    await ok("GET", `${org}/sessions/${session}/messages`, { auth });
    await ok("GET", `${org}/search?q=${session}`, { auth });
    await ok("GET", `${org}/users/answers-user/timeline`, { auth });
    await ok("GET", `${org}/overview`, { auth });
    await ok("POST", `${org}/agents/${agents.flow}/runs`, { auth, body: { inputs: { rows: [{ n: 1 }] } } });
    const form = new FormData();
    form.append("file", new Blob(["a,b\n1,2\n"], { type: "text/csv" }), "answers.csv");
    const up = await ok("POST", `/api/agents/${agents.chat}/upload`, { auth: key, raw: form });
    await ok("GET", `${org}/agents/${agents.chat}/files`, { auth });
    await ok("GET", `${org}/agents/${agents.chat}/files/${up.body.file_id}`, { auth });
    await ok("DELETE", `${org}/agents/${agents.chat}/files/${up.body.file_id}`, { auth });
  });

  it("evaluations: a dry run, one made and read with its cases and a verdict, another cancelled", async () => {
    const { orgA } = ctx();
    const auth = orgA.user_token;
    const chat = (await createAgent(orgA, ECHO_AGENT)).agent_id;
    await ok("POST", `/api/agents/webhook/${chat}`, { auth: key, body: { message: "evaluate me" } });
    const a = `/api/v1/organizations/${orgA.organization_id}/agents/${chat}`;
    const source = { kind: "sessions", limit: 1 };
    await ok("POST", `${a}/evaluations`, { auth, body: { candidate: 1, source, dry_run: true } });
    const made = await ok("POST", `${a}/evaluations`, { auth, body: { candidate: 1, source } });
    const e = `${a}/evaluations/${made.body.evaluation_id}`;
    await ok("GET", `${a}/evaluations`, { auth });
    await ok("GET", e, { auth });
    const cases = await ok("GET", `${e}/cases`, { auth });
    await ok("GET", `${e}/cases/${cases.body.cases[0].case_id}`, { auth });
    await ok("PUT", `${e}/cases/${cases.body.cases[0].case_id}/verdict`, { auth, body: { verdict: "better" } });
    // A candidate that answers in 20 s: the evaluation is still running when it is cancelled.
    await ok("PATCH", a, { auth, body: { runtime: { type: "echo", delay_ms: 20_000 }, base_version: 1 } });
    const slow = await ok("POST", `${a}/evaluations`, { auth, body: { source } });
    await ok("POST", `${a}/evaluations/${slow.body.evaluation_id}/cancel`, { auth });
  });

  it("files: an upload, a run's output file by its signed URL, and a tus upload through its protocol", async () => {
    const form = new FormData();
    form.append("file", new Blob(["a,b\n1,2\n"], { type: "text/csv" }), "answers.csv");
    await ok("POST", `/api/agents/${agents.chat}/upload`, { auth: key, raw: form });

    const runId = await startRun(agents.flow, { rows: [{ n: 1 }] });
    const run = await runUntil(agents.flow, runId, (s) => s === "completed");
    const link = new URL(run.output_files[0].url, ctx().baseUrl);
    await ok("GET", `${link.pathname}${link.search}`);

    const tus = `/api/agents/${agents.chat}/upload/tus`;
    const v = { "tus-resumable": "1.0.0" };
    await ok("OPTIONS", tus);
    const created = await ok("POST", tus, { auth: key, headers: { ...v, "upload-length": "3" } });
    const upload = created.headers.get("location")!;
    await ok("PATCH", upload, {
      auth: key,
      raw: "abc",
      headers: { ...v, "upload-offset": "0", "content-type": "application/offset+octet-stream" },
    });
    await ok("HEAD", upload, { auth: key, headers: v });
    await ok("GET", upload, { auth: key });
    const unfinished = await ok("POST", tus, { auth: key, headers: { ...v, "upload-length": "3" } });
    await ok("DELETE", unfinished.headers.get("location")!, { auth: key, headers: v });
  });

  it("workflow runs: triggers, the list and a run, approvals, and every control from a state that allows it", async () => {
    await ok("POST", `/api/workflows/${agents.flow}/trigger`, { auth: key, body: { payload: { rows: [] } } });
    const base = `/api/agents`;
    await ok("GET", `${base}/${agents.flow}/runs`, { auth: key });

    const reviewed = await startRun(agents.review, { rows: [{ n: 1 }] });
    await runUntil(agents.review, reviewed, (s) => s === "needs_review");
    const open = await ok("GET", `${base}/${agents.review}/runs/${reviewed}/approvals`, { auth: key });
    await ok("POST", `${base}/${agents.review}/runs/${reviewed}/approvals/resolve`, {
      auth: key,
      body: { exception_id: open.body[0].exception_id, resolution: "approved" },
    });

    const held = await startRun(agents.hold, {});
    await runUntil(agents.hold, held, (s) => s === "running");
    await ok("POST", `${base}/${agents.hold}/runs/${held}/pause`, { auth: key });
    await ok("POST", `${base}/${agents.hold}/runs/${held}/resume`, { auth: key });
    await ok("POST", `${base}/${agents.hold}/runs/${held}/cancel`, { auth: key });
    await ok("GET", `${base}/${agents.hold}/runs/${held}`, { auth: key });

    const failed = await startRun(agents.fatal, { rows: [{ n: 1 }] });
    await runUntil(agents.fatal, failed, (s) => s === "failed");
    await ok("POST", `${base}/${agents.fatal}/runs/${failed}/retry`, { auth: key });
  });

  describe("console", () => {
    let admin: ConsoleSession;
    let f: ConsoleFixtures;

    beforeAll(async () => {
      admin = await signIn("admin-a@example.com");
      f = await consoleFixtures(admin);
    });

    /** The console's requests (./console-routes.ts) but those that need a state of their own, below. */
    const OWN = new Set([
      "POST /api/console/auth/sign-in",
      "POST /api/console/auth/sign-out",
      "POST /api/console/auth/sign-out-everywhere",
      "POST /api/console/invitations/accept",
    ]);
    const plain = REQUESTS.filter((r) => !OWN.has(`${r.method} ${r.pattern}`));

    it.each(plain.map((r): [string, ConsoleRequest] => [`${r.method} ${r.pattern}`, r]))("%s", async (_, r) => {
      await ok(r.method, await r.path(f), { body: r.body?.(f) }, admin);
    });

    it("runs, reviews, bulk actions and deliveries of the organization API, with the console's cookie", async () => {
      await ok("GET", orgPath(`/runs?agent_id=${f.workflow}`), {}, admin);
      await ok("GET", orgPath(`/runs/${f.runId}`), {}, admin);
      await ok("GET", orgPath(`/runs/${f.runId}/items`), {}, admin);
      await ok("GET", orgPath("/reviews?limit=5"), {}, admin);
      const bulk = { exception_ids: ["exc_unknown"], resolution: "approved" };
      await ok("POST", orgPath("/reviews/bulk"), { body: bulk }, admin);
      await ok("GET", orgPath("/bulk-actions?limit=5"), {}, admin);
      await ok("POST", orgPath("/bulk-actions/preview"), { body: HARMLESS_BULK_ACTION }, admin);
      await ok("POST", orgPath("/bulk-actions"), { body: HARMLESS_BULK_ACTION }, admin);
      await ok("GET", orgPath(`/bulk-actions/${f.bulkActionId}`), {}, admin);
      await ok("GET", orgPath(`/deliveries?agent_id=${f.conversational}`), {}, admin);
      await ok("GET", orgPath(`/deliveries/${f.deliveryId}`), {}, admin);
      await ok("POST", orgPath(`/deliveries/${f.deliveryId}/redeliver`), {}, admin);
    });

    it("run controls and approvals, each from a state that allows it", async () => {
      const runs = orgPath("/runs");
      const reviewed = await startRun(agents.review, { rows: [{ n: 1 }] });
      await runUntil(agents.review, reviewed, (s) => s === "needs_review");
      const open = await ok("GET", `${runs}/${reviewed}/approvals`, {}, admin);
      await ok(
        "POST",
        `${runs}/${reviewed}/approvals/resolve`,
        { body: { exception_id: open.body.approvals[0].exception_id, resolution: "rejected", reason: "a test" } },
        admin,
      );
      const inbox = await startRun(agents.review, { rows: [{ n: 1 }] });
      await runUntil(agents.review, inbox, (s) => s === "needs_review");
      const [item] = (await ok("GET", `${runs}/${inbox}/approvals`, {}, admin)).body.approvals;
      await ok("POST", orgPath(`/reviews/${item.exception_id}/claim`), { body: {} }, admin);
      await ok("POST", orgPath(`/reviews/${item.exception_id}/resolve`), { body: { resolution: "approved" } }, admin);
      const held = await startRun(agents.hold, {});
      await runUntil(agents.hold, held, (s) => s === "running");
      for (const action of ["pause", "resume", "cancel"]) await ok("POST", `${runs}/${held}/${action}`, {}, admin);
      const failed = await startRun(agents.fatal, { rows: [{ n: 1 }] });
      await runUntil(agents.fatal, failed, (s) => s === "failed");
      await ok("POST", `${runs}/${failed}/rerun`, { body: { inputs: { rows: [{ n: 2 }] } } }, admin);
      await ok("POST", `${runs}/${failed}/retry`, {}, admin);
    });

    it("signing in, accepting an invitation, signing out here and everywhere; Auth.js's endpoints", async () => {
      const base = ctx().baseUrl;
      const out = consoleSession("", base);
      const signedIn = await ok(
        "POST",
        "/api/console/auth/sign-in",
        {
          body: { email: "admin-a@example.com", password: PASSWORD },
        },
        out,
      );
      const session = consoleSession(cookiesOf(signedIn.headers), base);
      const invited = await ok(
        "POST",
        `/api/v1/organizations/${ctx().orgA.organization_id}/invitations`,
        { body: { email: `answers-${Date.now()}@example.com`, role: "support" } },
        admin,
      );
      const token = new URL(invited.body.url).pathname.split("/").pop()!;
      await ok("POST", "/api/console/invitations/accept", { body: { token, password: PASSWORD } }, out);
      await ok("GET", "/api/auth/session", {}, session);
      await ok("POST", "/api/auth/signout", {}, session);
      await ok("POST", "/api/console/auth/sign-out", {}, session);
      // Last: it ends every session of admin-a, this file's `admin` too.
      await ok("POST", "/api/console/auth/sign-out-everywhere", {}, admin);
    });
  });

  it("reached every route of the contracts, each JSON success parsed with its schema", () => {
    const missing = CONTRACTS.flatMap((c) => {
      const key = `${c.method} ${c.path}`;
      const statuses = answered.get(key) ?? [];
      const onlyNotFound = c.errors?.length === 1 && c.errors[0] === "not_found";
      if (onlyNotFound) return statuses.includes(404) ? [] : [`${key}: no 404`];
      if (!statuses.some((s) => s < 400)) return [`${key}: no valid request`];
      const json = Object.entries(c.responses).filter(([s, a]) => Number(s) < 300 && jsonSchemaOf(a));
      if (json.length && !json.some(([s]) => CHECKED.has(`${key} ${s}`))) return [`${key}: no JSON answer checked`];
      return [];
    });
    expect(missing).toEqual([]);
  });
});
