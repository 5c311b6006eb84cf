// Flows of the OpenAPI conformance suite (e2e/api/openapi.test.ts) that walk one resource's
// operations through their states: each real answer is held to the served document by `conform`.
import { expect } from "vitest";
import { call, ctx, ECHO_AGENT, mintKey } from "./helpers";
import { conform } from "./openapi-conformance";

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
