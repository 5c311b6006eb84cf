// Flows of the OpenAPI conformance suite (e2e/api/openapi.test.ts) that walk one resource's
// operations through their states: each real answer is held to the served document by `conform`.
import { expect } from "vitest";
import { acceptAsNew, tokenOf } from "./console";
import { call, createAgent, ctx, ECHO_AGENT, mintKey, SIMPLE_WORKFLOW } from "./helpers";
import { conform, FATAL_WORKFLOW, REVIEW_WORKFLOW, SLOW_WORKFLOW } from "./openapi-conformance";

/** Agent versions: draft, preview, publish, canary, rollout, rollback, restore, discard, and their errors. */
export async function versionsConform() {
  const { orgA } = ctx();
  const a = { auth: orgA.user_token };
  const agent = (await call("POST", `/api/v1/organizations/${orgA.organization_id}/agents`, { ...a, body: ECHO_AGENT }))
    .body.agent_id;
  const base = `/api/v1/organizations/${orgA.organization_id}/agents/${agent}`;
  const doc = "/api/v1/organizations/{org_id}/agents/{agent_id}";
  const echo = (delay_ms: number) => ({ runtime: { type: "echo", delay_ms } });
  expect(conform("PATCH", doc, await call("PATCH", base, { ...a, body: { ...echo(1), base_version: 1 } })).status).toBe(
    200,
  );
  expect(conform("PATCH", doc, await call("PATCH", base, { ...a, body: { ...echo(2), base_version: 1 } })).status).toBe(
    409,
  );
  expect(conform("GET", `${doc}/versions`, await call("GET", `${base}/versions`, a)).status).toBe(200);
  expect(conform("GET", `${doc}/versions/{version}`, await call("GET", `${base}/versions/2`, a)).status).toBe(200);
  expect(conform("GET", `${doc}/versions/{version}`, await call("GET", `${base}/versions/9`, a)).status).toBe(404);
  const diff = `${doc}/versions/{version}/diff`;
  expect(conform("GET", diff, await call("GET", `${base}/versions/1/diff?to=2`, a)).status).toBe(200);
  expect(conform("GET", diff, await call("GET", `${base}/versions/1/diff`, a)).status).toBe(400);
  const publish = (body?: unknown) => call("POST", `${base}/publish`, { ...a, body });
  expect(conform("POST", `${doc}/publish`, await publish({ dry_run: true })).status).toBe(200);
  expect(conform("POST", `${doc}/publish`, await publish({ rollout_percent: 101 })).status).toBe(400);
  expect(conform("POST", `${doc}/publish`, await publish({ rollout_percent: 25 })).status).toBe(200);
  expect(conform("POST", `${doc}/publish`, await publish({})).status).toBe(409);
  expect(conform("GET", `${doc}/rollout`, await call("GET", `${base}/rollout`, a)).status).toBe(200);
  const rollout = (percent: unknown) => call("POST", `${base}/rollout`, { ...a, body: { percent } });
  expect(conform("POST", `${doc}/rollout`, await rollout(50)).status).toBe(200);
  expect(conform("POST", `${doc}/rollout`, await rollout(0)).status).toBe(400);
  expect(conform("POST", `${doc}/rollback`, await call("POST", `${base}/rollback`, a)).status).toBe(200);
  expect(conform("POST", `${doc}/rollback`, await call("POST", `${base}/rollback`, a)).status).toBe(409);
  expect(conform("POST", `${doc}/rollout`, await rollout(50)).status).toBe(409);
  const restore = `${doc}/versions/{version}/restore`;
  expect(conform("POST", restore, await call("POST", `${base}/versions/1/restore`, a)).status).toBe(200);
  expect(conform("POST", restore, await call("POST", `${base}/versions/3/restore`, a)).status).toBe(409);
  expect(conform("DELETE", `${doc}/draft`, await call("DELETE", `${base}/draft`, a)).status).toBe(200);
}

/** Evaluations: a dry run, one made, read, judged and listed, one cancelled, and their errors. */
export async function evaluationsConform() {
  const { orgA } = ctx();
  const a = { auth: orgA.user_token };
  const org = `/api/v1/organizations/${orgA.organization_id}`;
  const agent = (await call("POST", `${org}/agents`, { ...a, body: ECHO_AGENT })).body.agent_id;
  const invoke = (await mintKey(orgA)).key;
  expect((await call("POST", `/api/agents/webhook/${agent}`, { auth: invoke, body: { message: "hi" } })).status).toBe(
    200,
  );
  const base = `${org}/agents/${agent}/evaluations`;
  const doc = "/api/v1/organizations/{org_id}/agents/{agent_id}/evaluations";
  const create = (body: unknown) => call("POST", base, { ...a, body });
  const source = { kind: "sessions", limit: 1 };
  expect(conform("POST", doc, await create({ candidate: 1, source, dry_run: true })).status).toBe(200);
  expect(conform("POST", doc, await create({ candidate: 1, source: { ...source, limit: 0 } })).status).toBe(400);
  expect(conform("POST", doc, await create({ source })).status).toBe(400);
  const made = await create({ candidate: 1, source });
  expect(conform("POST", doc, made).status).toBe(201);
  expect(conform("GET", doc, await call("GET", base, a)).status).toBe(200);
  const one = `${base}/${made.body.evaluation_id}`;
  expect(conform("GET", `${doc}/{evaluation_id}`, await call("GET", one, a)).status).toBe(200);
  expect(conform("GET", `${doc}/{evaluation_id}`, await call("GET", `${base}/eval_unknown`, a)).status).toBe(404);
  const cases = await call("GET", `${one}/cases?outcome=passed&changed=false`, a);
  expect(conform("GET", `${doc}/{evaluation_id}/cases`, cases).status).toBe(200);
  const caseId = (await call("GET", `${one}/cases`, a)).body.cases[0].case_id;
  const caseDoc = `${doc}/{evaluation_id}/cases/{case_id}`;
  expect(conform("GET", caseDoc, await call("GET", `${one}/cases/${caseId}`, a)).status).toBe(200);
  const verdict = (body: unknown) => call("PUT", `${one}/cases/${caseId}/verdict`, { ...a, body });
  expect(conform("PUT", `${caseDoc}/verdict`, await verdict({ verdict: "worse", note: "terse" })).status).toBe(200);
  expect(conform("PUT", `${caseDoc}/verdict`, await verdict({ verdict: "awful" })).status).toBe(400);
  expect(
    conform(
      "PATCH",
      "/api/v1/organizations/{org_id}/agents/{agent_id}",
      await call("PATCH", `${org}/agents/${agent}`, {
        ...a,
        body: { runtime: { type: "echo", delay_ms: 20_000 }, base_version: 1 },
      }),
    ).status,
  ).toBe(200);
  const slow = await create({ source });
  const cancel = `${doc}/{evaluation_id}/cancel`;
  expect(conform("POST", cancel, await call("POST", `${base}/${slow.body.evaluation_id}/cancel`, a)).status).toBe(200);
  expect(conform("POST", cancel, await call("POST", `${base}/${slow.body.evaluation_id}/cancel`, a)).status).toBe(409);
}

/** Members and invitations (one accepted, then removed), the audit log, saved views, the signing secret. */
export async function organizationConform() {
  const { orgA } = ctx();
  const a = { auth: orgA.user_token };
  const org = `/api/v1/organizations/${orgA.organization_id}`;
  const doc = "/api/v1/organizations/{org_id}";
  const members = await call("GET", `${org}/members?limit=50`, a);
  expect(conform("GET", `${doc}/members`, members).status).toBe(200);
  const support = members.body.members.find((m: { email: string }) => m.email === "support-a@example.com");
  const role = await call("PATCH", `${org}/members/${support.user_id}`, { ...a, body: { role: "support" } });
  expect(conform("PATCH", `${doc}/members/{user_id}`, role).status).toBe(200);
  const email = () => `conform-member-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const invite = () => call("POST", `${org}/invitations`, { ...a, body: { email: email(), role: "support" } });
  const invited = await invite();
  expect(conform("POST", `${doc}/invitations`, invited).status).toBe(201);
  expect(conform("GET", `${doc}/invitations`, await call("GET", `${org}/invitations`, a)).status).toBe(200);
  const revoked = await call("DELETE", `${org}/invitations/${invited.body.invitation_id}`, a);
  expect(conform("DELETE", `${doc}/invitations/{invitation_id}`, revoked).status).toBe(200);
  const joined = (await acceptAsNew(tokenOf((await invite()).body.url))).res;
  expect(joined.status, joined.text).toBe(200);
  const removed = await call("DELETE", `${org}/members/${joined.body.member.user_id}`, a);
  expect(conform("DELETE", `${doc}/members/{user_id}`, removed).status).toBe(200);
  expect(conform("GET", `${doc}/audit`, await call("GET", `${org}/audit?action=member.*&limit=5`, a)).status).toBe(200);
  const view = await call("POST", `${org}/views`, { ...a, body: { list: "runs", name: "conform" } });
  expect(conform("POST", `${doc}/views`, view).status).toBe(201);
  expect(conform("GET", `${doc}/views`, await call("GET", `${org}/views?list=runs`, a)).status).toBe(200);
  const one = `${org}/views/${view.body.view_id}`;
  expect(
    conform("PATCH", `${doc}/views/{view_id}`, await call("PATCH", one, { ...a, body: { name: "c2" } })).status,
  ).toBe(200);
  expect(conform("DELETE", `${doc}/views/{view_id}`, await call("DELETE", one, a)).status).toBe(200);
  expect(conform("GET", `${doc}/webhook-secret`, await call("GET", `${org}/webhook-secret`, a)).status).toBe(200);
  expect(conform("POST", `${doc}/webhook-secret`, await call("POST", `${org}/webhook-secret`, a)).status).toBe(201);
}

/** The test console (a draft chat, a manual run), sessions across agents, search, a timeline, the overview, files. */
export async function consoleWorkConform() {
  const { orgA } = ctx();
  const a = { auth: orgA.user_token };
  const org = `/api/v1/organizations/${orgA.organization_id}`;
  const doc = "/api/v1/organizations/{org_id}";
  const chatAgent = (await createAgent(orgA, ECHO_AGENT)).agent_id;
  const flow = (await createAgent(orgA, SIMPLE_WORKFLOW)).agent_id;
  const chat = await call("POST", `${org}/agents/${chatAgent}/chat`, { ...a, body: { message: "conform" } });
  expect(conform("POST", `${doc}/agents/{agent_id}/chat`, chat).status).toBe(200);
  const run = await call("POST", `${org}/agents/${flow}/runs`, { ...a, body: { inputs: { rows: [{ a: 1 }] } } });
  expect(conform("POST", `${doc}/agents/{agent_id}/runs`, run).status).toBe(201);
  const session = chat.body.session_id as string;
  const list = await call("GET", `${org}/sessions?agent_id=${chatAgent}&environment=draft`, a);
  expect(conform("GET", `${doc}/sessions`, list).status).toBe(200);
  expect(list.body.sessions.map((s: { session_id: string }) => s.session_id)).toEqual([session]);
  const one = await call("GET", `${org}/sessions/${session}`, a);
  expect(conform("GET", `${doc}/sessions/{session_id}`, one).status).toBe(200);
  const messages = await call("GET", `${org}/sessions/${session}/messages`, a);
  expect(conform("GET", `${doc}/sessions/{session_id}/messages`, messages).status).toBe(200);
  const found = await call("GET", `${org}/search?q=${session}`, a);
  expect(conform("GET", `${doc}/search`, found).status).toBe(200);
  expect(found.body.exact?.id).toBe(session);
  const timeline = await call("GET", `${org}/users/conform-user/timeline`, a);
  expect(conform("GET", `${doc}/users/{user_id}/timeline`, timeline).status).toBe(200);
  expect(conform("GET", `${doc}/overview`, await call("GET", `${org}/overview`, a)).status).toBe(200);
  const key = (await mintKey(orgA)).key;
  const form = new FormData();
  form.append("file", new Blob(["a,b\n1,2\n"], { type: "text/csv" }), "conform.csv");
  const up = await call("POST", `/api/agents/${chatAgent}/upload`, { auth: key, raw: form });
  expect(up.status, up.text).toBe(200);
  const files = `${org}/agents/${chatAgent}/files`;
  expect(conform("GET", `${doc}/agents/{agent_id}/files`, await call("GET", files, a)).status).toBe(200);
  const file = `${doc}/agents/{agent_id}/files/{file_id}`;
  expect(conform("GET", file, await call("GET", `${files}/${up.body.file_id}`, a)).status).toBe(200);
  expect(conform("DELETE", file, await call("DELETE", `${files}/${up.body.file_id}`, a)).status).toBe(200);
}

/** Runs across agents, reviews, bulk actions and callback deliveries: each read, control and decision, and their errors. */
export async function orgWorkConform() {
  const { orgA } = ctx();
  const a = { auth: orgA.user_token };
  const org = `/api/v1/organizations/${orgA.organization_id}`;
  const doc = "/api/v1/organizations/{org_id}";
  const invoke = (await mintKey(orgA)).key;
  const agent = async (spec: unknown) => (await call("POST", `${org}/agents`, { ...a, body: spec })).body.agent_id;
  const start = async (agentId: string, body: unknown) =>
    (await call("POST", `/api/agents/webhook/${agentId}`, { auth: invoke, body })).body.run_id as string;
  const get = (path: string) => call("GET", `${org}${path}`, a);
  const post = (path: string, body?: unknown) => call("POST", `${org}${path}`, { ...a, body });
  const until = async (
    runId: string,
    done: (run: { status: string; item_counts: { needs_review: number } }) => boolean,
  ) => {
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
      const run = await get(`/runs/${runId}`);
      if (done(run.body)) return conform("GET", `${doc}/runs/{run_id}`, run);
    }
    throw new Error(`run ${runId} did not get there`);
  };

  // A run waiting for review: the list, the run, its items and approvals, a claim and decisions.
  const review = await agent(REVIEW_WORKFLOW);
  const waiting = await start(review, { rows: [{ n: 2 }] });
  expect((await until(waiting, (r) => r.status === "needs_review")).status).toBe(200);
  expect(conform("GET", `${doc}/runs`, await get(`/runs?agent_id=${review}&status=needs_review`)).status).toBe(200);
  expect(conform("GET", `${doc}/runs`, await get("/runs?status=bogus")).status).toBe(400);
  expect(conform("GET", `${doc}/runs/{run_id}`, await get("/runs/run_unknown")).status).toBe(404);
  expect(conform("GET", `${doc}/runs/{run_id}/items`, await get(`/runs/${waiting}/items`)).status).toBe(200);
  expect(conform("GET", `${doc}/runs/{run_id}/items`, await get(`/runs/${waiting}/items?status=bogus`)).status).toBe(
    400,
  );
  const approvals = conform("GET", `${doc}/runs/{run_id}/approvals`, await get(`/runs/${waiting}/approvals`));
  const exceptionId = approvals.body.approvals[0].exception_id;
  expect(conform("GET", `${doc}/reviews`, await get(`/reviews?agent_id=${review}`)).status).toBe(200);
  const claim = `${doc}/reviews/{exception_id}/claim`;
  expect(conform("POST", claim, await post(`/reviews/${exceptionId}/claim`, {})).status).toBe(200);
  expect(conform("POST", claim, await post("/reviews/exc_unknown/claim", {})).status).toBe(404);
  const decide = `${doc}/reviews/{exception_id}/resolve`;
  expect(
    conform("POST", decide, await post(`/reviews/${exceptionId}/resolve`, { resolution: "rejected" })).status,
  ).toBe(400);
  const resolve = `${doc}/runs/{run_id}/approvals/resolve`;
  const resolved = await post(`/runs/${waiting}/approvals/resolve`, {
    exception_id: exceptionId,
    resolution: "approved",
  });
  expect(conform("POST", resolve, resolved).status).toBe(200);
  const two = await start(review, { rows: [{ n: 2 }, { n: 3 }] });
  await until(two, (r) => r.status === "needs_review" && r.item_counts.needs_review === 2);
  const [first, second] = (await get(`/runs/${two}/approvals`)).body.approvals;
  expect(
    conform("POST", decide, await post(`/reviews/${first.exception_id}/resolve`, { resolution: "approved" })).status,
  ).toBe(200);
  const bulk = await post("/reviews/bulk", { exception_ids: [second.exception_id], resolution: "approved" });
  expect(conform("POST", `${doc}/reviews/bulk`, bulk).body.decided).toBe(1);

  // Controls on a run that waits two minutes, a retry of a failed one, a rerun of the cancelled one.
  const held = await start(await agent(SLOW_WORKFLOW), {});
  const control = (action: string) => post(`/runs/${held}/${action}`);
  expect(conform("POST", `${doc}/runs/{run_id}/pause`, await control("pause")).status).toBe(200);
  expect(conform("POST", `${doc}/runs/{run_id}/resume`, await control("resume")).status).toBe(200);
  expect(conform("POST", `${doc}/runs/{run_id}/retry`, await control("retry")).status).toBe(409);
  expect(conform("POST", `${doc}/runs/{run_id}/cancel`, await control("cancel")).status).toBe(200);
  const failed = await start(await agent(FATAL_WORKFLOW), {});
  await until(failed, (r) => r.status === "failed");
  expect(conform("POST", `${doc}/runs/{run_id}/retry`, await post(`/runs/${failed}/retry`)).status).toBe(200);
  const rerun = `${doc}/runs/{run_id}/rerun`;
  const rerunOf = conform("POST", rerun, await post(`/runs/${held}/rerun`, { inputs: {} }));
  expect(rerunOf.status).toBe(201);
  // The rerun waits two minutes too: cancelled, so that it holds none of the organization's run slots.
  expect((await post(`/runs/${rerunOf.body.run_id}/cancel`)).status).toBe(200);
  expect(conform("POST", rerun, await post(`/runs/${held}/rerun`, { inputs: [] })).status).toBe(400);

  // Bulk actions: a dry run, one started (it moves nothing: retry from failed only), read back.
  const harmless = { action: "retry", selection: { filter: { status: "completed" } } };
  expect(conform("POST", `${doc}/bulk-actions/preview`, await post("/bulk-actions/preview", harmless)).status).toBe(
    200,
  );
  expect(
    conform("POST", `${doc}/bulk-actions/preview`, await post("/bulk-actions/preview", { action: "x" })).status,
  ).toBe(400);
  const started = conform("POST", `${doc}/bulk-actions`, await post("/bulk-actions", harmless));
  expect(started.status).toBe(202);
  expect(conform("GET", `${doc}/bulk-actions`, await get("/bulk-actions?limit=5")).status).toBe(200);
  const one = `${doc}/bulk-actions/{bulk_action_id}`;
  expect(conform("GET", one, await get(`/bulk-actions/${started.body.bulk_action_id}`)).status).toBe(200);
  expect(conform("GET", one, await get("/bulk-actions/bulk_unknown")).status).toBe(404);

  // Deliveries: a reply's completion callback to an address that never answers, read and sent again.
  const echo = await agent(ECHO_AGENT);
  const body = { message: "hi", callback_url: "https://callbacks.invalid/hook" };
  expect((await call("POST", `/api/agents/webhook/${echo}`, { auth: invoke, body })).status).toBe(200);
  const list = conform("GET", `${doc}/deliveries`, await get(`/deliveries?agent_id=${echo}`));
  expect(list.body.deliveries).toHaveLength(1);
  const id = list.body.deliveries[0].id;
  expect(conform("GET", `${doc}/deliveries`, await get("/deliveries?status=lost")).status).toBe(400);
  expect(conform("GET", `${doc}/deliveries/{delivery_id}`, await get(`/deliveries/${id}`)).status).toBe(200);
  expect(conform("GET", `${doc}/deliveries/{delivery_id}`, await get("/deliveries/dlv_unknown")).status).toBe(404);
  const again = `${doc}/deliveries/{delivery_id}/redeliver`;
  expect(conform("POST", again, await post(`/deliveries/${id}/redeliver`)).status).toBe(202);
}
