// Threat model rows T-SQL-1, T-PATH-1 and T-LOG-1 (docs/security.md): text a caller controls reaches
// SQL only as a bound parameter, never names a file on disk, and no credential reaches the log.
// Each attacks the running production server as a key holder, a console user or an org admin would.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { orgPath, signIn, type ConsoleSession } from "../api/console";
import { call, createAgent, ctx, ECHO_AGENT, mintKey, SIMPLE_WORKFLOW } from "../api/helpers";

const INJECTIONS = [
  "' OR '1'='1",
  "x'; DROP TABLE runs; --",
  "%' OR 1=1 --",
  "run_x' UNION SELECT id, organization_id FROM access_keys --",
  '"); DELETE FROM sessions; --',
  "\\' OR 1=1 #",
];

let key: string;
let otherKey: string;
let agentId: string;
let workflowId: string;
let admin: ConsoleSession;
let support: ConsoleSession;

beforeAll(async () => {
  const { orgA, orgB } = ctx();
  key = (await mintKey(orgA)).key;
  otherKey = (await mintKey(orgB)).key;
  agentId = (await createAgent(orgA, ECHO_AGENT)).agent_id;
  workflowId = (await createAgent(orgA, SIMPLE_WORKFLOW)).agent_id;
  // Org B has data the injections would reveal if they reached SQL as text.
  const otherAgent = (await createAgent(orgB, ECHO_AGENT)).agent_id;
  await call("POST", `/api/agents/webhook/${otherAgent}`, { auth: otherKey, body: { message: "org B secret talk" } });
  await call("POST", `/api/agents/webhook/${agentId}`, { auth: key, body: { message: "hi" } });
  await call("POST", `/api/agents/webhook/${workflowId}`, { auth: key, body: { rows: [{ a: 1 }] } });
  admin = await signIn("admin-a@example.com");
  support = await signIn("support-a@example.com");
});

describe("T-SQL-1 text in filters, ids and bodies reaches SQL as a value only", () => {
  const paths = (v: string) => {
    const q = encodeURIComponent(v);
    return {
      public: [
        `/api/agents/${workflowId}/runs?status=${q}`,
        `/api/agents/${agentId}/sessions?status=${q}`,
        `/api/agents/${agentId}/sessions/${q}`,
        `/api/agents/${workflowId}/runs/${q}`,
        `/api/agents/${q}/sessions`,
      ],
      console: [
        orgPath(`/runs?status=${q}&agent_id=${q}`),
        orgPath(`/sessions?status=${q}&agent_id=${q}`),
        orgPath(`/audit?action=${q}`),
        orgPath(`/deliveries?agent_id=${q}`),
        orgPath(`/runs/${q}`),
        orgPath(`/sessions/${q}/messages`),
      ],
    };
  };

  it.each(INJECTIONS)("%j: answers as for any odd value, reveals nothing of org B, changes nothing", async (v) => {
    const { public: pub, console: con } = paths(v);
    const answers = [
      ...(await Promise.all(pub.map((p) => call("GET", p, { auth: key })))),
      ...(await Promise.all(con.map((p) => admin.call("GET", p)))),
      // The audit log is the admins' (support gets 403 before any filter is read).
      ...(await Promise.all(con.filter((p) => !p.includes("/audit")).map((p) => support.call("GET", p)))),
    ];
    for (const res of answers) {
      expect([200, 400, 404], res.text).toContain(res.status);
      expect(res.text).not.toContain("org B secret talk");
      expect(res.text).not.toContain(ctx().orgB.organization_id);
    }
    // A trigger whose every string carries the injection is stored as written.
    const reply = await call("POST", `/api/agents/webhook/${agentId}`, {
      auth: key,
      body: { message: v, user_id: v, metadata: { [v]: v } },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.response).toBe(`Echo: ${v}`);
  });

  it("a list's cursor is checked, and a well-formed one carrying an injection is only a value", async () => {
    const lists = [orgPath("/sessions"), orgPath("/runs"), orgPath("/audit")];
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const forged = [
      "not a cursor",
      b64({ at: "2026-01-01" }),
      b64(["yesterday", "run_x"]),
      b64([-1, "run_x"]),
      b64(["2026-11-27T00:00:00.000Z", "x".repeat(150)]),
      "A".repeat(201),
    ];
    for (const list of lists) {
      for (const cursor of forged) {
        const res = await admin.call("GET", `${list}?cursor=${encodeURIComponent(cursor)}`);
        expect(res.status, `${list} ${cursor.slice(0, 20)}: ${res.text}`).toBe(400);
        expect(res.body.error.code).toBe("invalid_request");
        expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain("cursor");
      }
      for (const v of INJECTIONS) {
        const res = await admin.call("GET", `${list}?cursor=${b64(["2999-01-01T00:00:00.000Z", v])}`);
        expect(res.status, res.text).toBe(200);
        expect(res.text).not.toContain(ctx().orgB.organization_id);
      }
    }
  });

  it("the public and management lists check their cursor too; one carrying an injection is only a value", async () => {
    const { orgA, orgB } = ctx();
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const sessionId = (await call("GET", `/api/agents/${agentId}/sessions`, { auth: key })).body.sessions[0].session_id;
    const management = `/api/v1/organizations/${orgA.organization_id}`;
    // [list, credential, the cursor's sort value]: secrets are ordered by name, the others by an instant.
    const lists: [string, string, string][] = [
      [`/api/agents/${agentId}/sessions`, key, "2999-01-01T00:00:00.000Z"],
      [`/api/agents/${agentId}/sessions/${sessionId}/messages`, key, "1999-01-01T00:00:00.000Z"],
      [`/api/agents/${workflowId}/runs`, key, "2999-01-01T00:00:00.000Z"],
      [`${management}/agents`, orgA.user_token, "2999-01-01T00:00:00.000Z"],
      [`${management}/access-keys`, orgA.user_token, "2999-01-01T00:00:00.000Z"],
    ];
    const forged = [
      "not a cursor",
      b64({ at: "2026-01-01" }),
      b64([-1, "x"]),
      b64(["2026-11-27T00:00:00.000Z", "x".repeat(150)]),
    ];
    for (const [list, auth, at] of lists) {
      for (const cursor of [...forged, b64(["yesterday", "x"])]) {
        const res = await call("GET", `${list}?cursor=${encodeURIComponent(cursor)}`, { auth });
        expect(res.status, `${list} ${cursor.slice(0, 20)}: ${res.text}`).toBe(400);
        expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain("cursor");
      }
      for (const v of INJECTIONS) {
        const res = await call("GET", `${list}?cursor=${b64([at, v])}`, { auth });
        expect(res.status, res.text).toBe(200);
        expect(res.text).not.toContain(orgB.organization_id);
      }
    }
    const secrets = `${management}/secrets`;
    for (const cursor of forged) {
      const res = await call("GET", `${secrets}?cursor=${encodeURIComponent(cursor)}`, { auth: orgA.user_token });
      expect(res.status, `${cursor.slice(0, 20)}: ${res.text}`).toBe(400);
      expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain("cursor");
    }
    for (const v of INJECTIONS) {
      const res = await call("GET", `${secrets}?cursor=${b64([v, "sec_x"])}`, { auth: orgA.user_token });
      expect(res.status, res.text).toBe(200);
      expect(res.text).not.toContain(orgB.organization_id);
    }
  });

  it("the tables the injections name are intact: every earlier run and session still answers", async () => {
    const runs = await call("GET", `/api/agents/${workflowId}/runs`, { auth: key });
    expect(runs.status).toBe(200);
    expect(runs.body.length).toBeGreaterThan(0);
    const sessions = await call("GET", `/api/agents/${agentId}/sessions`, { auth: key });
    expect(sessions.status).toBe(200);
    expect(sessions.body.sessions?.length ?? sessions.body.length).toBeGreaterThan(0);
  });
});

/** Every file below `dir`, relative. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => statSync(path.join(dir, f)).isFile());
}

describe("T-PATH-1 a file name a caller gives never becomes a path on disk", () => {
  const HOSTILE = [
    "../../../../../../tmp/aws-pwned.txt",
    "..\\..\\..\\aws-pwned.txt",
    "/etc/aws-pwned",
    "a/../../b.txt",
  ];

  it.each(HOSTILE)("multipart and tus uploads named %j are stored under the service's own key", async (name) => {
    const form = new FormData();
    form.append("file", new Blob(["payload"]), name);
    const multipart = await call("POST", `/api/agents/${agentId}/upload`, { auth: key, raw: form });
    expect(multipart.status, multipart.text).toBe(200);
    expect(multipart.body.file_id).toMatch(/^fi_[0-9a-f]{32}$/);
    const tus = await call("POST", `/api/agents/${agentId}/upload/tus`, {
      auth: key,
      raw: "payload",
      headers: {
        "tus-resumable": "1.0.0",
        "upload-length": "7",
        "upload-metadata": `filename ${Buffer.from(name).toString("base64")}`,
        "content-type": "application/offset+octet-stream",
      },
    });
    expect(tus.status, tus.text).toBe(201);
    expect(existsSync("/tmp/aws-pwned.txt")).toBe(false);
    expect(existsSync("/etc/aws-pwned")).toBe(false);
    const { dataDir } = ctx().target;
    // On the local disk, what was stored lies under the data folder's files/, named by ids only.
    if (!process.env.TEST_STORAGE) {
      for (const f of filesUnder(path.join(dataDir, "files"))) {
        expect(
          f.split(path.sep).every((part) => /^(org|agt|fi|upl|tus|runs?|out|exp)_?[0-9A-Za-z_.-]*$/.test(part)),
          f,
        ).toBe(true);
        expect(f).not.toContain("pwned");
      }
    }
  });

  it("a workflow's output file name cannot be a path", async () => {
    const res = await call("POST", `/api/v1/organizations/${ctx().orgA.organization_id}/agents`, {
      auth: ctx().orgA.user_token,
      body: {
        ...SIMPLE_WORKFLOW,
        workflow: { ...SIMPLE_WORKFLOW.workflow, output: { filename: "../../escape.csv", format: "csv" } },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields[0].field).toBe("workflow.output.filename");
  });
});

describe("T-LOG-1 no credential reaches the log", () => {
  it("organization secrets, header values, Access Keys, user tokens and session cookies are never logged", async () => {
    const { orgA, logFile } = ctx();
    const secretValue = "sk-log-probe-secret-0123456789abcdef";
    const headerValue = "log-probe-header-credential-0123456789";
    await call("PUT", `/api/v1/organizations/${orgA.organization_id}/secrets/log-probe`, {
      auth: orgA.user_token,
      body: { value: secretValue },
    });
    const agent = await call("POST", `/api/v1/organizations/${orgA.organization_id}/agents`, {
      auth: orgA.user_token,
      body: {
        name: "log probe",
        kind: "conversational",
        runtime: {
          type: "http",
          // Nothing listens here: the call fails, and its failure is logged.
          url: "http://127.0.0.1:9/reply",
          headers: { "x-probe": headerValue, authorization: "Bearer {{secrets.log-probe}}" },
        },
      },
    });
    expect(agent.status, agent.text).toBe(201);
    const reply = await call("POST", `/api/agents/webhook/${agent.body.agent_id}`, {
      auth: key,
      body: { message: "hi" },
    });
    expect(reply.status).toBe(502);
    const log = readFileSync(logFile, "utf8");
    const sessionToken = admin.cookie
      .split("; ")
      .find((c) => c.includes("session-token="))!
      .split("=")
      .slice(1)
      .join("=");
    expect(sessionToken.length).toBeGreaterThan(20);
    for (const value of [secretValue, headerValue, key, orgA.user_token, sessionToken]) {
      expect(log).not.toContain(value);
    }
  });
});
