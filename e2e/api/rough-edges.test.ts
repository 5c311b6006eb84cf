// Where a new user stumbled: malformed ids told what a well-formed one
// looks like, the workflow alias's missing `payload` wrapper named, a user token on the public API
// (and an Access Key on the management API) told where it belongs, a user_id given after a
// session's first message kept, and archived agents (DELETE on the management API). Client aborts
// of uploads are in uploads.test.ts (they need a server of their own and its log).
import { beforeAll, describe, expect, it } from "vitest";
import { orgPath, signIn } from "./console";
import {
  call,
  createAgent,
  ctx,
  ECHO_AGENT,
  expectError,
  listAll,
  mintKey,
  SIMPLE_WORKFLOW,
  type ApiResponse,
} from "./helpers";

const FILE_FORMAT = "fi_ followed by 32 lowercase hexadecimal characters";
const agentsPath = (org: string) => `/api/v1/organizations/${org}/agents`;

let key: string;

beforeAll(async () => {
  key = (await mintKey(ctx().orgA)).key;
});

const trigger = (agentId: string, body: unknown) => call("POST", `/api/agents/webhook/${agentId}`, { auth: key, body });

async function upload(agentId: string, name = "data.csv") {
  const form = new FormData();
  form.append("file", new Blob(["a,b\n1,2\n"], { type: "text/csv" }), name);
  return call("POST", `/api/agents/${agentId}/upload`, { auth: key, raw: form });
}

const FILE_WORKFLOW = {
  name: "file input",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { doc: { type: "file", required: true } },
    items: { from: "doc", format: "csv" },
    steps: [{ id: "t", type: "transform", expression: "item" }],
  },
};

describe("malformed ids say what a well-formed one looks like", () => {
  let conversational: string;
  let fileWorkflow: string;
  beforeAll(async () => {
    conversational = (await createAgent(ctx().orgA, ECHO_AGENT)).agent_id;
    fileWorkflow = (await createAgent(ctx().orgA, FILE_WORKFLOW)).agent_id;
  });

  it('a workflow file input {"file_id": "fi_nope"}: 400 invalid_request with the file id format', async () => {
    const res = await trigger(fileWorkflow, { doc: { file_id: "fi_nope" } });
    expectError(res, 400, "invalid_request");
    expect(res.body.error.message).toContain(FILE_FORMAT);
    expect(res.body.error.message).not.toContain("must be an fi_ file id");
    expect(res.body.error.details.fields).toEqual([
      { field: "doc.file_id", message: expect.stringContaining(FILE_FORMAT) },
    ]);
  });

  it.each([
    ["fi_nope", "fi_nope"],
    ["no prefix", "nope"],
    ["upper-case hex", `fi_${"A".repeat(32)}`],
    ["one character short", `fi_${"0".repeat(31)}`],
  ])("an attachment id (%s): 400 invalid_request naming attachments.0.file_id and the format", async (_l, id) => {
    const res = await trigger(conversational, { message: "hi", attachments: [{ file_id: id }] });
    expectError(res, 400, "invalid_request");
    expect(res.body.error.details.fields).toEqual([
      { field: "attachments.0.file_id", message: `must be a file id: ${FILE_FORMAT} (0-9, a-f)` },
    ]);
  });

  it("a malformed reference elsewhere in a body: 400 file_not_found that says it is not a file id", async () => {
    const res = await trigger(conversational, { message: "hi", metadata: { doc: { file_id: "fi_nope" } } });
    expectError(res, 400, "file_not_found");
    expect(res.body.error.message).toContain(FILE_FORMAT);
    expect(res.body.error.details).toEqual({ file_id: "fi_nope", field: "metadata.doc" });
  });

  it("a well-formed but unknown id is still 'not found', not a format error", async () => {
    const res = await trigger(conversational, { message: "hi", attachments: [{ file_id: `fi_${"0".repeat(32)}` }] });
    expectError(res, 400, "file_not_found");
    expect(res.body.error.message).toMatch(/was not found/);
  });

  it("a malformed project_id on the management API names the project id format", async () => {
    const { orgA } = ctx();
    const res = await call("POST", agentsPath(orgA.organization_id), {
      auth: orgA.user_token,
      body: { ...ECHO_AGENT, project_id: "proj_nope" },
    });
    expectError(res, 400, "invalid_request");
    expect(res.body.error.details.fields).toEqual([
      { field: "project_id", message: "must be a project id: proj_ followed by 22 letters and digits" },
    ]);
    // The format is the real one: the organization's own project id passes it.
    const ok = await call("POST", agentsPath(orgA.organization_id), {
      auth: orgA.user_token,
      body: { ...ECHO_AGENT, project_id: orgA.project_id },
    });
    expect(ok.status, ok.text).toBe(201);
  });
});

describe("the workflow alias names its missing payload wrapper", () => {
  let agentId: string;
  const alias = (body: unknown) => call("POST", `/api/workflows/${agentId}/trigger`, { auth: key, body });

  beforeAll(async () => {
    agentId = (await createAgent(ctx().orgA, SIMPLE_WORKFLOW)).agent_id;
  });

  it('inputs sent at the top level: 400 invalid_request saying inputs go inside "payload"', async () => {
    const res = await alias({ rows: [{ a: 1 }] });
    expectError(res, 400, "invalid_request");
    expect(res.body.error.message).toBe('Invalid body: inputs go inside "payload": {"payload": {"rows": ...}}');
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(["payload", "rows"]);
    const runs = await call("GET", `/api/agents/${agentId}/runs`, { auth: key });
    expect(runs.body).toEqual([]);
  });

  it("the same inputs inside payload start a run", async () => {
    const res = await alias({ payload: { rows: [{ a: 1 }] } });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({ run_id: expect.stringMatching(/^run_/), status: "triggered" });
  });

  it("inputs given in variables alone are still accepted (no payload, no top-level input)", async () => {
    const res = await alias({ variables: { rows: [] } });
    expect(res.status, res.text).toBe(202);
  });

  it("a body with payload that misses an input still names the input", async () => {
    const res = await alias({ payload: {} });
    expectError(res, 400, "invalid_request");
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(["rows"]);
    expect(res.body.error.message).not.toContain('"payload"');
  });
});

describe("credentials in the wrong API", () => {
  it("a user token on the public API: 401 unauthorized saying user tokens are for the management API and the console", async () => {
    const { orgA } = ctx();
    const agentId = (await createAgent(orgA, ECHO_AGENT)).agent_id;
    for (const [method, path, body] of [
      ["POST", `/api/agents/webhook/${agentId}`, { message: "hi" }],
      ["GET", `/api/agents/${agentId}/sessions`, undefined],
    ] as const) {
      const res = await call(method, path, { auth: orgA.user_token, body });
      expectError(res, 401, "unauthorized");
      expect(res.body.error.message).toMatch(/user token.*management API.*console/);
      expect(res.body.error.message).toContain("Access Key");
      expect(res.body.error.message).toContain("ak_");
      expect(res.text).not.toContain(orgA.user_token);
    }
    // Anything else keeps the plain answer.
    const garbage = await call("GET", `/api/agents/${agentId}/sessions`, { auth: "nonsense" });
    expectError(garbage, 401, "unauthorized");
    expect(garbage.body.error.message).toBe("Missing or invalid Access Key.");
  });

  it("an Access Key on the management API: 401 unauthorized saying Access Keys are for the public API", async () => {
    const { orgA } = ctx();
    const res = await call("GET", agentsPath(orgA.organization_id), { auth: key });
    expectError(res, 401, "unauthorized");
    expect(res.body.error.message).toMatch(/Access Key.*public API.*user token/);
    expect(res.text).not.toContain(key);
  });
});

describe("a session's user_id", () => {
  let agentId: string;
  const session = (id: string) => call("GET", `/api/agents/${agentId}/sessions/${id}`, { auth: key });

  beforeAll(async () => {
    agentId = (await createAgent(ctx().orgA, ECHO_AGENT)).agent_id;
  });

  it("is taken from a later message when the session had none", async () => {
    const first = await trigger(agentId, { message: "no user yet" });
    expect(first.status, first.text).toBe(200);
    const id = first.body.session_id;
    expect((await session(id)).body.user_id).toBe("");
    const second = await trigger(agentId, { message: "now with a user", session_id: id, user_id: "cust_42" });
    expect(second.status, second.text).toBe(200);
    expect((await session(id)).body.user_id).toBe("cust_42");
    // A later message without user_id leaves it as it is.
    await trigger(agentId, { message: "again", session_id: id });
    expect((await session(id)).body.user_id).toBe("cust_42");
    const listed = await call("GET", `/api/agents/${agentId}/sessions`, { auth: key });
    expect(listed.body.sessions.find((s: { session_id: string }) => s.session_id === id).user_id).toBe("cust_42");
  });

  it("once set, is kept: a different user_id on a later message does not replace it", async () => {
    const first = await trigger(agentId, { message: "hello", user_id: "cust_1" });
    const id = first.body.session_id;
    const second = await trigger(agentId, { message: "someone else?", session_id: id, user_id: "cust_2" });
    expect(second.status, second.text).toBe(200);
    expect((await session(id)).body.user_id).toBe("cust_1");
  });
});

async function waitForRun(agentId: string, runId: string, status: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await call("GET", `/api/agents/${agentId}/runs/${runId}`, { auth: key });
    if (res.body?.status === status) return res;
    if (Date.now() > deadline) throw new Error(`run ${runId} is ${res.body?.status}, not ${status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("archiving an agent (DELETE on the management API)", () => {
  const REVIEW_WORKFLOW = {
    name: "to archive (workflow)",
    kind: "workflow",
    runtime: { type: "echo" },
    workflow: {
      inputs: { rows: { type: "array", required: true } },
      items: { from: "rows" },
      steps: [{ id: "check", type: "review", when: "true", message: "look at it" }],
    },
  };
  let conv: string;
  let wf: string;
  let sessionId: string;
  let messageId: string;
  let fileId: string;
  let tusFileUrl: string;
  let runToCancel: string;
  let runToResume: string;
  let archived: Record<string, unknown>;
  const mgmt = (method: string, path: string, token = ctx().orgA.user_token) => call(method, path, { auth: token });
  const agentPath = (id: string) => `${agentsPath(ctx().orgA.organization_id)}/${id}`;

  beforeAll(async () => {
    const { orgA } = ctx();
    conv = (await createAgent(orgA, { ...ECHO_AGENT, name: "to archive (conversational)" })).agent_id;
    wf = (await createAgent(orgA, REVIEW_WORKFLOW)).agent_id;
    const t = await trigger(conv, { message: "before archiving", user_id: "u1" });
    expect(t.status, t.text).toBe(200);
    [sessionId, messageId] = [t.body.session_id, t.body.message_id];
    const up = await upload(conv, "before.csv");
    expect(up.status, up.text).toBe(200);
    fileId = up.body.file_id;
    // A resumable upload finished in one request: its URL keeps answering with the file.
    const created = await fetch(`${ctx().baseUrl}/api/agents/${conv}/upload/tus`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "tus-resumable": "1.0.0",
        "upload-length": "4",
        "content-type": "application/offset+octet-stream",
      },
      body: "a,b\n",
    });
    expect(created.status).toBe(201);
    tusFileUrl = new URL(created.headers.get("location")!, ctx().baseUrl).pathname;
    for (const which of ["cancel", "resume"]) {
      const r = await trigger(wf, { rows: [{ n: which }] });
      expect(r.status, r.text).toBe(202);
      if (which === "cancel") runToCancel = r.body.run_id;
      else runToResume = r.body.run_id;
    }
    await waitForRun(wf, runToCancel, "needs_review");
    await waitForRun(wf, runToResume, "needs_review");
  });

  it("is admin only: a support member gets 403 forbidden and nothing changes", async () => {
    expectError(await mgmt("DELETE", agentPath(conv), ctx().supportA.user_token), 403, "forbidden");
    expect((await mgmt("GET", agentPath(conv))).body.archived_at).toBeNull();
  });

  it("answers 404 for another organization's agent and for an unknown one", async () => {
    const { orgB } = ctx();
    const theirs = (await createAgent(orgB, ECHO_AGENT)).agent_id;
    expectError(await mgmt("DELETE", agentPath(theirs)), 404, "agent_not_found");
    expectError(await mgmt("DELETE", agentPath("agt_unknown")), 404, "agent_not_found");
  });

  it("answers 200 with the record and archived_at; a second DELETE answers the same", async () => {
    const first = await mgmt("DELETE", agentPath(conv));
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ agent_id: conv, name: "to archive (conversational)" });
    expect(Date.parse(first.body.archived_at)).not.toBeNaN();
    const again = await mgmt("DELETE", agentPath(conv));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await mgmt("GET", agentPath(conv))).body).toEqual(first.body);
    archived = first.body;
    const w = await mgmt("DELETE", agentPath(wf));
    expect(w.status, w.text).toBe(200);
  });

  it("writes one agent.archived audit event, however many DELETEs", async () => {
    const admin = await signIn("admin-a@example.com");
    const res = await admin.call("GET", orgPath("/audit?action=agent.archived&limit=100"));
    expect(res.status, res.text).toBe(200);
    const mine = res.body.events.filter((e: { target: { id: string } }) => e.target.id === conv);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      action: "agent.archived",
      target: { type: "agent", id: conv },
      actor: { type: "user" },
    });
  });

  it("refuses new triggers, uploads and resumable uploads with 409 agent_archived", async () => {
    const refusals = [
      await trigger(conv, { message: "after archiving" }),
      await trigger(conv, { message: "continue", session_id: sessionId }),
      await call("POST", `/api/agents/webhook/${conv}`, {
        auth: key,
        body: { message: "async" },
        headers: { prefer: "respond-async" },
      }),
      await trigger(wf, { rows: [{ n: 1 }] }),
      await call("POST", `/api/workflows/${wf}/trigger`, { auth: key, body: { payload: { rows: [] } } }),
      await upload(conv, "after.csv"),
      await call("POST", `/api/agents/${conv}/upload/tus`, {
        auth: key,
        headers: { "tus-resumable": "1.0.0", "upload-length": "4" },
      }),
    ];
    for (const res of refusals) {
      expectError(res, 409, "agent_archived");
      expect(res.body.error.message).toMatch(/archived/);
      expect(res.body.error.details.archived_at).toBeDefined();
    }
    expect(refusals[0]!.body.error.details).toEqual({ agent_id: conv, archived_at: archived.archived_at });
  });

  it("stored nothing for the refused triggers", async () => {
    const sessions = await call("GET", `/api/agents/${conv}/sessions`, { auth: key });
    expect(sessions.body.sessions.map((s: { session_id: string }) => s.session_id)).toEqual([sessionId]);
    expect(sessions.body.sessions[0].message_count).toBe(2);
    const runs = await call("GET", `/api/agents/${wf}/runs`, { auth: key });
    expect(runs.body.map((r: { run_id: string }) => r.run_id).sort()).toEqual([runToCancel, runToResume].sort());
  });

  it("keeps sessions, messages and files readable", async () => {
    const base = `/api/agents/${conv}/sessions/${sessionId}`;
    const one = await call("GET", base, { auth: key });
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({ session_id: sessionId, user_id: "u1" });
    const msgs = await call("GET", `${base}/messages`, { auth: key });
    expect(msgs.body.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
    const reply = await call("GET", `${base}/messages/${messageId}`, { auth: key });
    expect(reply.body).toMatchObject({ status: "completed", content: "Echo: before archiving" });
    const tusFile = await call("GET", tusFileUrl, { auth: key });
    expect(tusFile.status, tusFile.text).toBe(200);
    expect(tusFile.body).toMatchObject({ size_bytes: 4 });
    const admin = await signIn("admin-a@example.com");
    const files = await admin.call("GET", orgPath(`/agents/${conv}/files`));
    expect(files.status, files.text).toBe(200);
    expect(JSON.stringify(files.body)).toContain(fileId);
  });

  it("keeps runs readable and their controls and approvals working", async () => {
    const run = await call("GET", `/api/agents/${wf}/runs/${runToCancel}`, { auth: key });
    expect(run.body).toMatchObject({ run_id: runToCancel, status: "needs_review" });
    const cancelled = await call("POST", `/api/agents/${wf}/runs/${runToCancel}/cancel?triggered_by=rough-edges`, {
      auth: key,
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");

    const approvals = await call("GET", `/api/agents/${wf}/runs/${runToResume}/approvals`, { auth: key });
    expect(approvals.status, approvals.text).toBe(200);
    expect(approvals.body).toHaveLength(1);
    const resolved = await call("POST", `/api/agents/${wf}/runs/${runToResume}/approvals/resolve`, {
      auth: key,
      body: { exception_id: approvals.body[0].exception_id, resolution: "approved" },
    });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body).toMatchObject({ all_resolved: true, resumed: true });
    await waitForRun(wf, runToResume, "completed");
  });

  it("lists archived agents on the management API only with include_archived=true; the console lists them badged", async () => {
    const org = ctx().orgA.organization_id;
    // Every page of each list (the suites' organization holds more agents than a page).
    const list = (query: string) =>
      listAll<{ agent_id: string; archived_at: unknown }>(
        `${agentsPath(org)}${query}`,
        "agents",
        ctx().orgA.user_token,
      );
    const ids = (res: { rows: { agent_id: string }[] }) => res.rows.map((a) => a.agent_id);
    const plain = await list("");
    expect(ids(plain)).not.toContain(conv);
    expect(plain.rows.every((a) => a.archived_at === null)).toBe(true);
    const all = await list("?include_archived=true");
    expect(ids(all)).toEqual(expect.arrayContaining([conv, wf, ...ids(plain)]));
    expect(all.rows.find((a) => a.agent_id === conv)).toEqual(archived);
    // Other suites add agents meanwhile: the explicit false lists at least the same, and no archived one.
    const explicit = await list("?include_archived=false");
    expect(ids(explicit)).toEqual(expect.arrayContaining(ids(plain)));
    expect(explicit.rows.every((a) => a.archived_at === null)).toBe(true);
    expectError(await mgmt("GET", `${agentsPath(org)}?include_archived=yes`), 400, "invalid_request");

    const admin = await signIn("admin-a@example.com");
    const consoleList = await admin.call("GET", `${agentsPath(org)}?include_archived=true&limit=500`);
    const row = consoleList.body.agents.find((a: { agent_id: string }) => a.agent_id === conv);
    expect(row.archived_at).toBe(archived.archived_at);
  });

  it("the console's agents list (its session on the organization API) pages by cursor: every agent once, newest first, archived ones too", async () => {
    const admin = await signIn("admin-a@example.com");
    const ids = (res: { body: { agents: { agent_id: string }[] } }) => res.body.agents.map((a) => a.agent_id);
    const agents = `${agentsPath(ctx().orgA.organization_id)}?include_archived=true`;
    await createAgent(ctx().orgA, { ...ECHO_AGENT, name: "console paging" });
    const whole = await admin.call("GET", `${agents}&limit=500`);
    expect(whole.status, whole.text).toBe(200);
    expect(whole.body.next_cursor).toBeNull();
    // Every list of the organization API pages the same way (docs/api.md, Paging).
    expect(whole.body.has_more).toBe(false);
    const before = ids(whole);
    expect(before.length).toBeGreaterThan(3);

    type AgentsPage = { agents: { agent_id: string }[]; has_more: boolean; next_cursor: string | null };
    const walked: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; text: string; body: AgentsPage } = await admin.call<AgentsPage>(
        "GET",
        `${agents}&limit=3${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body.agents.length).toBeLessThanOrEqual(3);
      expect(res.body.has_more).toBe(res.body.next_cursor !== null);
      walked.push(...ids(res));
      cursor = res.body.next_cursor;
      expect(++pages).toBeLessThan(500);
    } while (cursor);
    // Other suites add agents meanwhile (newer ones, before the walk's cursor): every agent listed
    // before the walk is on it once, in the order of one whole list.
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked).toEqual(expect.arrayContaining(before));
    const after = ids(await admin.call("GET", `${agents}&limit=500`));
    expect(after.filter((id) => walked.includes(id))).toEqual(walked);

    const forged = await admin.call("GET", `${agents}&limit=3&cursor=${encodeURIComponent("not a cursor")}`);
    expectError(forged, 400, "invalid_request");
    expect(forged.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(["cursor"]);
  });

  it("the console's session archives too (admin), with the same answer when already archived", async () => {
    const fresh = (await createAgent(ctx().orgA, { ...ECHO_AGENT, name: "console archive" })).agent_id;
    const agent = `${agentsPath(ctx().orgA.organization_id)}/${fresh}`;
    const support = await signIn("support-a@example.com");
    expectError(await support.call("DELETE", agent), 403, "forbidden");
    const admin = await signIn("admin-a@example.com");
    const res = await admin.call("DELETE", agent);
    expect(res.status, res.text).toBe(200);
    expect(res.body.archived_at).not.toBeNull();
    expect((await admin.call("DELETE", agent)).body).toEqual(res.body);
    const chat = await admin.call("POST", orgPath(`/agents/${fresh}/chat`), { message: "hi" });
    expectError(chat, 409, "agent_archived");
  });
});

describe("the console's lists take no offset", () => {
  it("an offset, however deep, is not read: every list answers its first page, as without it", async () => {
    const admin = await signIn("admin-a@example.com");
    const org = `/api/v1/organizations/${ctx().orgA.organization_id}`;
    for (const list of ["runs", "sessions", "audit", "invitations", "agents"]) {
      // Every list across agents is the organization API's.
      const path = `${org}/${list}`;
      const first = await admin.call("GET", `${path}?limit=2`);
      const deep = await admin.call("GET", `${path}?limit=2&offset=2000000000`);
      expect(first.status, `${list}: ${first.text}`).toBe(200);
      expect(deep.status, `${list}: ${deep.text}`).toBe(200);
      const key = Object.keys(first.body).find((k) => Array.isArray(first.body[k]))!;
      // The organization's pending invitations may be none; every other list has rows by now.
      if (list !== "invitations") expect(first.body[key].length, list).toBeGreaterThan(0);
      expect(deep.body[key], list).toEqual(first.body[key]);
    }
  });
});

describe("every timestamp input is bounded to what the databases store", () => {
  it("answers 400 naming the field for a year 0 (or a `to` date past 9999) on every list, usage and export", async () => {
    const { orgA } = ctx();
    const agent = (await createAgent(orgA, ECHO_AGENT)).agent_id;
    const org = `/api/v1/organizations/${orgA.organization_id}`;
    const YEAR_0 = "0000-01-01T00:00:00Z";
    const fieldsOf = (res: { body: any }) => res.body.error.details.fields.map((f: { field: string }) => f.field);
    const refused = (res: ApiResponse, field: string) => {
      expectError(res, 400, "invalid_request");
      // One field at fault (a range rule may name it once more: usage's 90 days).
      expect([...new Set(fieldsOf(res))]).toEqual([field]);
      expect(res.body.error.message).toContain("between 0001-01-01 and 9999-12-31");
    };
    refused(await call("GET", `/api/agents/${agent}/sessions?since=${YEAR_0}`, { auth: key }), "since");
    refused(await call("GET", `${org}/usage?from=${YEAR_0}`, { auth: orgA.user_token }), "from");
    refused(
      await call("POST", `${org}/exports`, {
        auth: orgA.user_token,
        body: { kind: "sessions", filters: { from: YEAR_0 } },
      }),
      "filters.from",
    );
    const admin = await signIn("admin-a@example.com");
    refused(await admin.call("GET", orgPath("/sessions?from=0000-01-01")), "from");
    refused(await admin.call("GET", orgPath("/runs?to=9999-12-31")), "to");
    refused(await admin.call("GET", orgPath(`/reviews?from=${YEAR_0}`)), "from");
    // The bounds themselves are fine.
    expect((await call("GET", `/api/agents/${agent}/sessions?since=0001-01-01T00:00:00Z`, { auth: key })).status).toBe(
      200,
    );
    expect((await admin.call("GET", orgPath("/runs?to=9999-12-30"))).status).toBe(200);
  });
});
