// The OpenAPI document cannot lie: real answers of the running server (successes and errors, on
// every operation it describes) are checked against the document the server itself serves at
// /api/openapi.json: the status must be documented for the operation, a JSON body must validate
// against its schema (ajv, JSON Schema 2020-12), an error's code must be one the operation lists.
import { beforeAll, describe, expect, it } from "vitest";
import { CONTRACTS } from "../../app/api/contracts";
import { buildOpenApiDocument } from "../../lib/openapi/document";
import { finishedExport } from "./console-routes";
import {
  consoleWorkConform,
  evaluationsConform,
  organizationConform,
  orgWorkConform,
  versionsConform,
} from "./openapi-flows";
import { call, createAgent, ctx } from "./helpers";
import {
  agents,
  agree,
  bodyValid,
  checked,
  conform,
  doc,
  esc,
  FATAL_WORKFLOW,
  key,
  operationsNeverSucceeded,
  PUBLIC,
  queryValid,
  REVIEW_WORKFLOW,
  setUpConformance,
  SLOW_WORKFLOW,
  validatorAt,
  waitForRun,
} from "./openapi-conformance";

beforeAll(setUpConformance);

describe("GET /api/openapi.json", () => {
  it("is public and cacheable, revalidates with its ETag, and is the document lib/openapi builds", async () => {
    const res = await call("GET", "/api/openapi.json");
    conform("GET", "/api/openapi.json", res);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.body).toEqual(buildOpenApiDocument(CONTRACTS));
    expect(res.body.openapi).toMatch(/^3\.1\./);
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await call("GET", "/api/openapi.json", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    conform("GET", "/api/openapi.json", again);
    const head = await fetch(`${ctx().baseUrl}/api/openapi.json`, { method: "HEAD" });
    expect(head.status).toBe(200);
  });
});

describe("conversations: real answers match the document", () => {
  let sessionId: string;
  let messageId: string;

  it("trigger: the reply (200), accepted (202), and its errors", async () => {
    const sync = conform(
      "POST",
      PUBLIC.trigger,
      await call("POST", `/api/agents/webhook/${agents.echo}`, {
        auth: key,
        body: { message: "hello", metadata: { channel: "email" } },
      }),
    );
    expect(sync.status).toBe(200);
    sessionId = sync.body.session_id;
    // The check has teeth: the same answer with a wrong type, a missing or an undocumented field fails it.
    const reply = validatorAt(`#/paths/${esc(PUBLIC.trigger)}/post/responses/200`);
    expect(reply(sync.body)).toBe(true);
    expect(reply({ ...sync.body, response: 42 })).toBe(false);
    expect(reply({ ...sync.body, extra: true })).toBe(false);
    const { token_usage: _dropped, ...incomplete } = sync.body;
    expect(reply(incomplete)).toBe(false);
    const accepted = conform(
      "POST",
      PUBLIC.trigger,
      await call("POST", `/api/agents/webhook/${agents.echo}`, {
        auth: key,
        body: { message: "again", session_id: sessionId },
        headers: { prefer: "respond-async", "idempotency-key": `openapi-${Date.now()}` },
      }),
    );
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get("location")).toBe(
      `/api/agents/${agents.echo}/sessions/${sessionId}/messages/${accepted.body.message_id}`,
    );
    messageId = accepted.body.message_id;
    const errors: [unknown, Record<string, string>, number][] = [
      [{ message: "" }, {}, 400],
      [{ message: "hi", session_id: "sess_unknown" }, {}, 404],
      [{ message: "hi", attachments: [{ file_id: `fi_${"0".repeat(32)}` }] }, {}, 400],
      // Completion callbacks: a documented code of its own.
      [{ message: "hi", callback_url: "ftp://example.com/hook" }, {}, 400],
    ];
    for (const [body, headers, status] of errors) {
      const res = await call("POST", `/api/agents/webhook/${agents.echo}`, { auth: key, body, headers });
      expect(res.status, res.text).toBe(status);
      conform("POST", PUBLIC.trigger, res);
    }
    const notJson = await call("POST", `/api/agents/webhook/${agents.echo}`, {
      auth: key,
      raw: "hi",
      headers: { "content-type": "text/plain" },
    });
    expect(notJson.status).toBe(415);
    conform("POST", PUBLIC.trigger, notJson);
    const badJson = await call("POST", `/api/agents/webhook/${agents.echo}`, {
      auth: key,
      raw: "{",
      headers: { "content-type": "application/json" },
    });
    expect(badJson.status).toBe(400);
    conform("POST", PUBLIC.trigger, badJson);
    const noKey = conform(
      "POST",
      PUBLIC.trigger,
      await call("POST", `/api/agents/webhook/${agents.echo}`, { body: { message: "hi" } }),
    );
    expect(noKey.status).toBe(401);
    const otherOrg = conform(
      "POST",
      PUBLIC.trigger,
      await call("POST", `/api/agents/webhook/${agents.other}`, { auth: key, body: { message: "hi" } }),
    );
    expect(otherOrg.status).toBe(404);
    const failed = conform(
      "POST",
      PUBLIC.trigger,
      await call("POST", `/api/agents/webhook/${agents.failing}`, { auth: key, body: { message: "hi" } }),
    );
    expect(failed.status).toBe(502);
    const stored = await call(
      "GET",
      `/api/agents/${agents.failing}/sessions/${failed.body.error.details.session_id}/messages/${failed.body.error.details.message_id}`,
      { auth: key },
    );
    expect(stored.body.status).toBe("error");
    conform("GET", PUBLIC.message, stored);
  });

  it("sessions and messages: lists, records, long polling and their errors", async () => {
    const polled = conform(
      "GET",
      PUBLIC.message,
      await call("GET", `/api/agents/${agents.echo}/sessions/${sessionId}/messages/${messageId}`, {
        auth: key,
        headers: { prefer: "wait=10" },
      }),
    );
    expect(polled.status).toBe(200);
    for (const [template, path] of [
      [PUBLIC.sessions, `/api/agents/${agents.echo}/sessions?limit=5`],
      [PUBLIC.session, `/api/agents/${agents.echo}/sessions/${sessionId}`],
      [PUBLIC.messages, `/api/agents/${agents.echo}/sessions/${sessionId}/messages?role=assistant`],
      [PUBLIC.messages, `/api/agents/${agents.echo}/sessions/${sessionId}/messages`],
    ] as const) {
      const res = conform("GET", template, await call("GET", path, { auth: key }));
      expect(res.status, res.text).toBe(200);
    }
    for (const [template, path, status] of [
      [PUBLIC.sessions, `/api/agents/${agents.echo}/sessions?limit=zero`, 400],
      [PUBLIC.sessions, `/api/agents/${agents.workflow}/sessions`, 400],
      [PUBLIC.session, `/api/agents/${agents.echo}/sessions/sess_unknown`, 404],
      [PUBLIC.messages, `/api/agents/${agents.echo}/sessions/sess_unknown/messages`, 404],
      [PUBLIC.message, `/api/agents/${agents.echo}/sessions/${sessionId}/messages/msg_unknown`, 404],
    ] as const) {
      const res = conform("GET", template, await call("GET", path, { auth: key }));
      expect(res.status, res.text).toBe(status);
    }
  });
});

describe("files: real answers match the document", () => {
  it("multipart upload (200) and its errors", async () => {
    const form = new FormData();
    form.append("file", new Blob(["id,n\n1,2\n"], { type: "text/csv" }), "rows.csv");
    const res = conform(
      "POST",
      PUBLIC.upload,
      await call("POST", `/api/agents/${agents.echo}/upload`, { auth: key, raw: form }),
    );
    expect(res.status).toBe(200);
    const noFile = new FormData();
    noFile.append("other", "x");
    const missing = conform(
      "POST",
      PUBLIC.upload,
      await call("POST", `/api/agents/${agents.echo}/upload`, { auth: key, raw: noFile }),
    );
    expect(missing.status).toBe(400);
    const notMultipart = conform(
      "POST",
      PUBLIC.upload,
      await call("POST", `/api/agents/${agents.echo}/upload`, { auth: key, body: {} }),
    );
    expect(notMultipart.status).toBe(415);
  });

  it("tus: OPTIONS, creation, PATCH, HEAD, GET, DELETE and the protocol's refusals", async () => {
    const base = `/api/agents/${agents.echo}/upload/tus`;
    const v = { "tus-resumable": "1.0.0" };
    expect(conform("OPTIONS", PUBLIC.tus, await call("OPTIONS", base)).status).toBe(204);
    const meta = `filename ${Buffer.from("a.txt").toString("base64")},filetype ${Buffer.from("text/plain").toString("base64")}`;
    const created = conform(
      "POST",
      PUBLIC.tus,
      await call("POST", base, { auth: key, headers: { ...v, "upload-length": "10", "upload-metadata": meta } }),
    );
    expect(created.status).toBe(201);
    const url = created.headers.get("location")!;
    const incomplete = conform("GET", PUBLIC.tusUpload, await call("GET", url, { auth: key }));
    expect(incomplete.status).toBe(409);
    const octets = { ...v, "content-type": "application/offset+octet-stream" };
    const wrongOffset = conform(
      "PATCH",
      PUBLIC.tusUpload,
      await call("PATCH", url, { auth: key, headers: { ...octets, "upload-offset": "3" }, raw: "abcde" }),
    );
    expect(wrongOffset.status).toBe(409);
    const first = conform(
      "PATCH",
      PUBLIC.tusUpload,
      await call("PATCH", url, { auth: key, headers: { ...octets, "upload-offset": "0" }, raw: "abcde" }),
    );
    expect(first.status).toBe(204);
    expect(conform("HEAD", PUBLIC.tusUpload, await call("HEAD", url, { auth: key, headers: v })).status).toBe(200);
    const last = conform(
      "PATCH",
      PUBLIC.tusUpload,
      await call("PATCH", url, { auth: key, headers: { ...octets, "upload-offset": "5" }, raw: "fghij" }),
    );
    expect(last.headers.get("upload-file-id")).toMatch(/^fi_/);
    const file = conform("GET", PUBLIC.tusUpload, await call("GET", url, { auth: key }));
    expect(file.status).toBe(200);
    const noVersion = conform("HEAD", PUBLIC.tusUpload, await call("HEAD", url, { auth: key }));
    expect(noVersion.status).toBe(412);
    const empty = conform(
      "POST",
      PUBLIC.tus,
      await call("POST", base, { auth: key, headers: { ...v, "upload-length": "0" } }),
    );
    expect(empty.status).toBe(400);
    expect(empty.headers.get("content-type")).toMatch(/^application\/json/); // the envelope, validated above
    const doomed = await call("POST", base, { auth: key, headers: { ...v, "upload-length": "4" } });
    const gone = conform(
      "DELETE",
      PUBLIC.tusUpload,
      await call("DELETE", doomed.headers.get("location")!, { auth: key, headers: v }),
    );
    expect(gone.status).toBe(204);
    const unknown = conform(
      "HEAD",
      PUBLIC.tusUpload,
      await call("HEAD", doomed.headers.get("location")!, { auth: key, headers: v }),
    );
    expect(unknown.status).toBe(404);
  });
});

describe("workflow runs: real answers match the document", () => {
  let runId: string;

  it("triggers, lists, fetches, approvals, controls, downloads and their errors", async () => {
    const accepted = conform(
      "POST",
      PUBLIC.trigger,
      await call("POST", `/api/agents/webhook/${agents.workflow}`, { auth: key, body: { rows: [{ n: 1 }, { n: 2 }] } }),
    );
    expect(accepted.status).toBe(202);
    runId = accepted.body.run_id;
    const invalid = conform(
      "POST",
      PUBLIC.trigger,
      await call("POST", `/api/agents/webhook/${agents.workflow}`, { auth: key, body: { rows: "no" } }),
    );
    expect(invalid.status).toBe(400);
    const sdk = conform(
      "POST",
      PUBLIC.workflowTrigger,
      await call("POST", `/api/workflows/${agents.workflow}/trigger`, { auth: key, body: { payload: { rows: [] } } }),
    );
    expect(sdk.status).toBe(202);
    const wrongKind = conform(
      "POST",
      PUBLIC.workflowTrigger,
      await call("POST", `/api/workflows/${agents.echo}/trigger`, { auth: key, body: { payload: {} } }),
    );
    expect(wrongKind.status).toBe(400);

    await waitForRun(agents.workflow, runId, "needs_review");
    const approvals = conform(
      "GET",
      PUBLIC.approvals,
      await call("GET", `/api/agents/${agents.workflow}/runs/${runId}/approvals`, { auth: key }),
    );
    expect(approvals.body).toHaveLength(1);
    const pause = conform(
      "POST",
      `${PUBLIC.run}/pause`,
      await call("POST", `/api/agents/${agents.workflow}/runs/${runId}/pause`, { auth: key }),
    );
    expect(pause.status).toBe(409);
    const badResolution = conform(
      "POST",
      PUBLIC.resolve,
      await call("POST", `/api/agents/${agents.workflow}/runs/${runId}/approvals/resolve`, {
        auth: key,
        body: { exception_id: approvals.body[0].exception_id, resolution: "maybe" },
      }),
    );
    expect(badResolution.status).toBe(400);
    const resolved = conform(
      "POST",
      PUBLIC.resolve,
      await call("POST", `/api/agents/${agents.workflow}/runs/${runId}/approvals/resolve`, {
        auth: key,
        body: { exception_id: approvals.body[0].exception_id, resolution: "approved" },
      }),
    );
    expect(resolved.body.resumed).toBe(true);
    const done = await waitForRun(agents.workflow, runId, "completed");
    expect(done.body.output_files).toHaveLength(1);

    const listed = conform(
      "GET",
      PUBLIC.runs,
      await call("GET", `/api/agents/${agents.workflow}/runs?limit=5&status=completed`, { auth: key }),
    );
    expect(listed.body.length).toBeGreaterThan(0);
    for (const [template, path, status] of [
      [PUBLIC.runs, `/api/agents/${agents.workflow}/runs?status=bogus`, 400],
      [PUBLIC.runs, `/api/agents/${agents.echo}/runs`, 400],
      [PUBLIC.run, `/api/agents/${agents.workflow}/runs/run_unknown`, 404],
      [PUBLIC.approvals, `/api/agents/${agents.workflow}/runs/run_unknown/approvals`, 404],
    ] as const) {
      expect(conform("GET", template, await call("GET", path, { auth: key })).status).toBe(status);
    }

    const url = new URL(done.body.output_files[0].url);
    const download = conform("GET", "/api/files/download", await call("GET", `${url.pathname}${url.search}`));
    expect(download.status).toBe(200);
    const partial = conform(
      "GET",
      "/api/files/download",
      await call("GET", `${url.pathname}${url.search}`, { headers: { range: "bytes=0-1" } }),
    );
    expect(partial.status).toBe(206);
    const tampered = conform("GET", "/api/files/download", await call("GET", `${url.pathname}${url.search}x`));
    expect(tampered.status).toBe(403);
  });

  it("controls: each action's answer, and 409 from a state that does not allow it", async () => {
    const slow = (await createAgent(ctx().orgA, SLOW_WORKFLOW)).agent_id;
    const run = (await call("POST", `/api/agents/webhook/${slow}`, { auth: key, body: {} })).body.run_id;
    const at = (action: string) => `/api/agents/${slow}/runs/${run}/${action}?triggered_by=openapi-test`;
    expect(conform("POST", `${PUBLIC.run}/pause`, await call("POST", at("pause"), { auth: key })).status).toBe(200);
    expect(conform("POST", `${PUBLIC.run}/resume`, await call("POST", at("resume"), { auth: key })).status).toBe(200);
    expect(conform("POST", `${PUBLIC.run}/retry`, await call("POST", at("retry"), { auth: key })).status).toBe(409);
    expect(conform("POST", `${PUBLIC.run}/cancel`, await call("POST", at("cancel"), { auth: key })).status).toBe(200);
    expect(conform("POST", `${PUBLIC.run}/resume`, await call("POST", at("resume"), { auth: key })).status).toBe(409);
    // retry's 200: a run that failed (a fatal fail step on its only item).
    const fatal = (await createAgent(ctx().orgA, FATAL_WORKFLOW)).agent_id;
    const failing = (await call("POST", `/api/agents/webhook/${fatal}`, { auth: key, body: {} })).body.run_id;
    await waitForRun(fatal, failing, "failed");
    const retried = conform(
      "POST",
      `${PUBLIC.run}/retry`,
      await call("POST", `/api/agents/${fatal}/runs/${failing}/retry`, { auth: key }),
    );
    expect(retried.status).toBe(200);
  });
});

describe("management API and service routes: real answers match the document", () => {
  it("Access Keys: mint (201), list, revoke, and their errors", async () => {
    const { orgA, supportA } = ctx();
    const base = `/api/v1/organizations/${orgA.organization_id}/access-keys`;
    const minted = conform(
      "POST",
      "/api/v1/organizations/{org_id}/access-keys",
      await call("POST", base, { auth: orgA.user_token, body: { name: "openapi", rate_limit_per_minute: 100 } }),
    );
    expect(minted.status).toBe(201);
    expect(
      conform("GET", "/api/v1/organizations/{org_id}/access-keys", await call("GET", base, { auth: orgA.user_token }))
        .status,
    ).toBe(200);
    const revoked = conform(
      "DELETE",
      "/api/v1/organizations/{org_id}/access-keys/{key_id}",
      await call("DELETE", `${base}/${minted.body.key_id}`, { auth: orgA.user_token }),
    );
    expect(revoked.body.revoked_at).not.toBeNull();
    const errors: [string, string, string | undefined, unknown, number][] = [
      ["POST", base, supportA.user_token, { name: "x" }, 403],
      ["POST", base, orgA.user_token, { name: "" }, 400],
      ["GET", base, undefined, undefined, 401],
      ["GET", `/api/v1/organizations/org_unknown/access-keys`, orgA.user_token, undefined, 404],
    ];
    for (const [method, path, auth, body, status] of errors) {
      const res = conform(
        method,
        "/api/v1/organizations/{org_id}/access-keys",
        await call(method, path, { auth, body }),
      );
      expect(res.status, res.text).toBe(status);
    }
    const unknownKey = conform(
      "DELETE",
      "/api/v1/organizations/{org_id}/access-keys/{key_id}",
      await call("DELETE", `${base}/key_unknown`, { auth: orgA.user_token }),
    );
    expect(unknownKey.status).toBe(404);
  });

  it("agents: create (201), list, fetch, update, archive, and their errors", async () => {
    const { orgA } = ctx();
    const base = `/api/v1/organizations/${orgA.organization_id}/agents`;
    const one = "/api/v1/organizations/{org_id}/agents/{agent_id}";
    const created = conform(
      "POST",
      "/api/v1/organizations/{org_id}/agents",
      await call("POST", base, { auth: orgA.user_token, body: REVIEW_WORKFLOW }),
    );
    expect(created.status).toBe(201);
    const id = created.body.agent_id;
    expect(
      conform(
        "GET",
        "/api/v1/organizations/{org_id}/agents",
        await call("GET", `${base}?include_archived=true`, { auth: orgA.user_token }),
      ).status,
    ).toBe(200);
    expect(conform("GET", one, await call("GET", `${base}/${id}`, { auth: orgA.user_token })).status).toBe(200);
    expect(
      conform("PATCH", one, await call("PATCH", `${base}/${id}`, { auth: orgA.user_token, body: { name: "renamed" } }))
        .status,
    ).toBe(200);
    expect(
      conform(
        "PATCH",
        one,
        await call("PATCH", `${base}/${id}`, { auth: orgA.user_token, body: { kind: "conversational" } }),
      ).status,
    ).toBe(400);
    expect(conform("DELETE", one, await call("DELETE", `${base}/${id}`, { auth: orgA.user_token })).status).toBe(200);
    const archived = conform(
      "POST",
      PUBLIC.trigger,
      await call("POST", `/api/agents/webhook/${id}`, { auth: key, body: { rows: [] } }),
    );
    expect(archived.status).toBe(409);
    const invalid = conform(
      "POST",
      "/api/v1/organizations/{org_id}/agents",
      await call("POST", base, { auth: orgA.user_token, body: { name: "x", kind: "robot" } }),
    );
    expect(invalid.status).toBe(400);
    const badQuery = conform(
      "GET",
      "/api/v1/organizations/{org_id}/agents",
      await call("GET", `${base}?include_archived=yes`, { auth: orgA.user_token }),
    );
    expect(badQuery.status).toBe(400);
    expect(conform("GET", one, await call("GET", `${base}/agt_unknown`, { auth: orgA.user_token })).status).toBe(404);
  });

  it("organization secrets: set (201, then 200), list, delete, and their errors", async () => {
    const { orgA } = ctx();
    const base = `/api/v1/organizations/${orgA.organization_id}/secrets`;
    const one = "/api/v1/organizations/{org_id}/secrets/{name}";
    const name = `doc-${Date.now()}`;
    const put = (value: unknown) => call("PUT", `${base}/${name}`, { auth: orgA.user_token, body: { value } });
    expect(conform("PUT", one, await put("first-value-0123456789")).status).toBe(201);
    expect(conform("PUT", one, await put("second-value-0123456789")).status).toBe(200);
    expect(conform("PUT", one, await put("")).status).toBe(400);
    const list = conform(
      "GET",
      "/api/v1/organizations/{org_id}/secrets",
      await call("GET", base, { auth: orgA.user_token }),
    );
    expect(list.status).toBe(200);
    expect(list.body.secrets.some((s: { name: string }) => s.name === name)).toBe(true);
    expect(conform("DELETE", one, await call("DELETE", `${base}/${name}`, { auth: orgA.user_token })).status).toBe(200);
    expect(conform("DELETE", one, await call("DELETE", `${base}/${name}`, { auth: orgA.user_token })).status).toBe(404);
  });

  it("retention: read with and without a preview, set, and their errors", async () => {
    // Org B: e2e/api/retention.test.ts, running beside this file, reads org A's setting.
    const { orgB, supportA, orgA } = ctx();
    const base = `/api/v1/organizations/${orgB.organization_id}/retention`;
    const doc = "/api/v1/organizations/{org_id}/retention";
    const a = { auth: orgB.user_token };
    expect(conform("GET", doc, await call("GET", base, a)).status).toBe(200);
    expect(conform("GET", doc, await call("GET", `${base}?preview_days=30`, a)).status).toBe(200);
    expect(conform("GET", doc, await call("GET", `${base}?preview_days=x`, a)).status).toBe(400);
    const ofA = `/api/v1/organizations/${orgA.organization_id}/retention`;
    // Every member reads it (the console shows support the setting); only an admin sets it.
    const support = { auth: supportA.user_token };
    expect(conform("GET", doc, await call("GET", ofA, support)).status).toBe(200);
    expect(conform("PATCH", doc, await call("PATCH", ofA, { ...support, body: { retention_days: 1 } })).status).toBe(
      403,
    );
    expect(conform("PATCH", doc, await call("PATCH", base, { ...a, body: { retention_days: 3650 } })).status).toBe(200);
    expect(conform("PATCH", doc, await call("PATCH", base, { ...a, body: { retention_days: -1 } })).status).toBe(400);
    expect(conform("PATCH", doc, await call("PATCH", base, { ...a, body: { retention_days: null } })).status).toBe(200);
  });

  it("alerts: rules created, listed, read, changed, tested and deleted; the history; their errors", async () => {
    const { orgA } = ctx();
    const auth = { auth: orgA.user_token };
    const base = `/api/v1/organizations/${orgA.organization_id}`;
    const doc = "/api/v1/organizations/{org_id}";
    const rules = `${doc}/alert-rules`;
    const one = `${rules}/{rule_id}`;
    const body = { name: "doc rule", kind: "error_rate", threshold: 20, url: "https://hooks.example.com/doc" };
    const created = conform("POST", rules, await call("POST", `${base}/alert-rules`, { ...auth, body }));
    expect(created.status).toBe(201);
    const bad = { ...auth, body: { ...body, threshold: 101 } };
    expect(conform("POST", rules, await call("POST", `${base}/alert-rules`, bad)).status).toBe(400);
    expect(conform("GET", rules, await call("GET", `${base}/alert-rules`, auth)).status).toBe(200);
    const path = `${base}/alert-rules/${created.body.rule_id}`;
    expect(conform("GET", one, await call("GET", path, auth)).status).toBe(200);
    expect(conform("PATCH", one, await call("PATCH", path, { ...auth, body: { threshold: 30 } })).status).toBe(200);
    expect(conform("POST", `${one}/test`, await call("POST", `${path}/test`, auth)).status).toBe(202);
    expect(conform("GET", `${doc}/alert-events`, await call("GET", `${base}/alert-events`, auth)).status).toBe(200);
    expect(conform("DELETE", one, await call("DELETE", path, auth)).status).toBe(200);
    expect(conform("GET", one, await call("GET", path, auth)).status).toBe(404);
  });

  it("key lifecycle, exports and usage: change, roll, preview; an export made, read and downloaded; the usage figures", async () => {
    const { orgA } = ctx();
    const org = `/api/v1/organizations/${orgA.organization_id}`;
    const doc = "/api/v1/organizations/{org_id}";
    const a = { auth: orgA.user_token };
    const minted = await call("POST", `${org}/access-keys`, { ...a, body: { name: "openapi-lifecycle" } });
    expect(minted.status, minted.text).toBe(201);
    const key = `${org}/access-keys/${minted.body.key_id}`;
    const keyDoc = `${doc}/access-keys/{key_id}`;
    expect(conform("PATCH", keyDoc, await call("PATCH", key, { ...a, body: { name: "renamed" } })).status).toBe(200);
    expect(conform("PATCH", keyDoc, await call("PATCH", key, { ...a, body: { name: "" } })).status).toBe(400);
    expect(conform("GET", keyDoc, await call("GET", key, a)).status).toBe(200);
    expect(conform("GET", `${keyDoc}/usage-preview`, await call("GET", `${key}/usage-preview`, a)).status).toBe(200);
    const roll = (grace: number) => call("POST", `${key}/roll`, { ...a, body: { grace_period_seconds: grace } });
    expect(conform("POST", `${keyDoc}/roll`, await roll(0)).status).toBe(201);
    expect(conform("POST", `${keyDoc}/roll`, await roll(0)).status).toBe(409);

    expect(conform("GET", `${doc}/usage`, await call("GET", `${org}/usage?group_by=hour`, a)).status).toBe(200);
    expect(conform("GET", `${doc}/usage`, await call("GET", `${org}/usage?group_by=week`, a)).status).toBe(400);

    const exportsDoc = `${doc}/exports`;
    const made = conform(
      "POST",
      exportsDoc,
      await call("POST", `${org}/exports`, { ...a, body: { kind: "audit", format: "csv" } }),
    );
    expect(made.status, made.text).toBe(201);
    expect(conform("GET", exportsDoc, await call("GET", `${org}/exports`, a)).status).toBe(200);
    const done = await finishedExport(orgA.organization_id);
    const one = `${org}/exports/${done.id}`;
    expect(conform("GET", `${exportsDoc}/{export_id}`, await call("GET", one, a)).status).toBe(200);
    const download = await call("GET", `${one}/download?token=${done.token}`, a);
    expect(conform("GET", `${exportsDoc}/{export_id}/download`, download).status).toBe(200);
    expect(conform("GET", `${exportsDoc}/{export_id}`, await call("GET", `${org}/exports/exp_unknown`, a)).status).toBe(
      404,
    );
  });

  it("agent versions: draft, preview, publish, canary, rollout, rollback, restore, discard, and their errors", async () => {
    await versionsConform();
  });

  it("evaluations: a dry run, one made, read, judged and listed, one cancelled, and their errors", async () => {
    await evaluationsConform();
  });

  it("members, invitations, the audit log, saved views and the signing secret, each answer as documented", async () => {
    await organizationConform();
  });

  it("the test console, sessions across agents, search, a timeline, the overview and files, as documented", async () => {
    await consoleWorkConform();
  });

  it("runs across agents, reviews, bulk actions and deliveries: reads, controls and decisions, each as documented", async () => {
    await orgWorkConform();
  });

  it("the service routes (health, and any other unauthenticated GET without parameters)", async () => {
    const service = Object.entries(doc.paths).filter(([, item]) => {
      const op = item.get as any;
      return op?.tags?.[0] === "Service" && !(op.parameters ?? []).some((p: any) => p.required);
    });
    expect(service.map(([p]) => p)).toContain("/api/health");
    for (const [p] of service) expect(conform("GET", p, await call("GET", p)).status, p).toBe(200);
  });
});

describe("requests: what the document calls valid the server takes, what it calls invalid the server refuses", () => {
  it("bodies: key change and roll, alert rules, organization secrets, approvals", async () => {
    const { orgA } = ctx();
    const a = { auth: orgA.user_token };
    const org = `/api/v1/organizations/${orgA.organization_id}`;
    const docOrg = "/api/v1/organizations/{org_id}";
    const minted = await call("POST", `${org}/access-keys`, { ...a, body: { name: "openapi-requests" } });
    expect(minted.status, minted.text).toBe(201);
    const keyPath = `${org}/access-keys/${minted.body.key_id}`;
    const cases: [method: string, template: string, path: string, body: unknown][] = [
      ["PATCH", `${docOrg}/access-keys/{key_id}`, keyPath, {}], // minProperties
      ["PATCH", `${docOrg}/access-keys/{key_id}`, keyPath, { name: `  ${"n".repeat(200)}  ` }], // 200 once trimmed
      ["PATCH", `${docOrg}/access-keys/{key_id}`, keyPath, { name: "n".repeat(201) }],
      ["PATCH", `${docOrg}/access-keys/{key_id}`, keyPath, { name: " \t " }],
      ["POST", `${docOrg}/access-keys/{key_id}/roll`, `${keyPath}/roll`, { grace_period_seconds: 1800 }],
      ["POST", `${docOrg}/access-keys/{key_id}/roll`, `${keyPath}/roll`, { grace_period_seconds: 604801 }],
      [
        "POST",
        `${docOrg}/alert-rules`,
        `${org}/alert-rules`,
        { name: "r", kind: "error_rate", threshold: 5, url: "not a url" },
      ],
      ["POST", `${docOrg}/alert-rules`, `${org}/alert-rules`, { name: "a\u0007b", kind: "error_rate", threshold: 5 }],
      [
        "POST",
        `${docOrg}/alert-rules`,
        `${org}/alert-rules`,
        { name: "  spaced rule\n", kind: "error_rate", threshold: 5 },
      ],
      ["PUT", `${docOrg}/secrets/{name}`, `${org}/secrets/OPENAPI_REQUESTS`, { value: "  token-\u00e9\n" }],
      ["PUT", `${docOrg}/secrets/{name}`, `${org}/secrets/OPENAPI_REQUESTS`, { value: "token-\u0100" }],
      ["PUT", `${docOrg}/secrets/{name}`, `${org}/secrets/OPENAPI_REQUESTS`, { value: "to\nken" }],
      [
        "POST",
        PUBLIC.resolve,
        `/api/agents/${agents.workflow}/runs/run_0OpenApiRequests0000000/approvals/resolve`,
        { exception_id: "exc_x", resolution: "modified" },
      ],
      [
        "POST",
        PUBLIC.resolve,
        `/api/agents/${agents.workflow}/runs/run_0OpenApiRequests0000000/approvals/resolve`,
        { exception_id: "exc_x", resolution: "modified", modified_data: { n: 1 } },
      ],
    ];
    let refused = 0;
    for (const [method, template, path, body] of cases) {
      const auth = path.startsWith("/api/v1/") ? a : { auth: key };
      const res = conform(method, template, await call(method, path, { ...auth, body }));
      const valid = bodyValid(method, template, body);
      agree(valid, res, `${method} ${path} ${JSON.stringify(body)}`);
      if (!valid) refused++;
    }
    expect(refused).toBe(10); // the cases above are both kinds: the comparison is not vacuous
  });

  it("queries: triggered_by trimmed, the approvals' status filter (its 400 is documented)", async () => {
    const run = `/api/agents/${agents.workflow}/runs/run_0OpenApiRequests0000000`;
    for (const value of ["   ", " ops ", "x".repeat(201), `  ${"x".repeat(200)}  `]) {
      const res = conform(
        "POST",
        `${PUBLIC.run}/cancel`,
        await call("POST", `${run}/cancel?triggered_by=${encodeURIComponent(value)}`, { auth: key }),
      );
      agree(
        queryValid("POST", `${PUBLIC.run}/cancel`, "triggered_by", value),
        res,
        `triggered_by=${JSON.stringify(value)}`,
      );
    }
    const bad = conform("GET", PUBLIC.approvals, await call("GET", `${run}/approvals?status=bad`, { auth: key }));
    expect(bad.body.error.code).toBe("invalid_request");
    expect(queryValid("GET", PUBLIC.approvals, "status", "bad")).toBe(false);
  });
});

describe("coverage", () => {
  it("saw every operation of the document answer successfully, each answer as documented", () => {
    expect(operationsNeverSucceeded()).toEqual([]);
    expect(checked.size).toBeGreaterThan(60);
  });
});
