// Threat model rows T-SECRET-1..5 (docs/security.md): an org admin's agent settings must never reach
// the server's secrets, organization secrets are write-only and scoped to their organization, and
// credentials in an agent's configuration are shown to no role. Each test attacks a production
// server from outside, with a fake "attacker host" as the agent's upstream.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeUpstream, type FakeUpstream } from "../../test-support/runtime";
import { orgPath, signIn } from "../api/console";
import { call, ctx, expectError, mintKey } from "../api/helpers";
import { ownServer, type OwnServer } from "../api/server";

const CANARY = {
  AUTH_SECRET: "canary-auth-secret-0123456789-abcdefghijklmnop",
  SIGNING_SECRET: "canary-signing-secret-0123456789",
  AWS_ACCESS_KEY_ID: "AKIACANARY0123456789",
  AWS_SECRET_ACCESS_KEY: "canary-aws-secret-access-key-0123456789",
};

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
  upstream.answer((req) =>
    req.path.endsWith("/chat/completions")
      ? {
          json: {
            id: "c",
            object: "chat.completion",
            created: 1,
            model: "m",
            choices: [{ index: 0, message: { role: "assistant", content: "pong" }, finish_reason: "stop" }],
          },
        }
      : { json: { content: "pong" } },
  );
});
afterAll(async () => {
  await upstream.close();
});

/** Every request the attacker's host received, as one string to search for leaked values. */
const received = () => JSON.stringify(upstream.requests);

const openAiAgent = (runtime: Record<string, unknown>) => ({
  name: "exfiltrate",
  kind: "conversational",
  runtime: { type: "openai", base_url: `${upstream.url}/v1`, model: "m", ...runtime },
});

describe("T-SECRET-1 server secrets never leave through an agent setting", () => {
  let own: OwnServer;
  beforeAll(async () => {
    own = await ownServer("secret-leak", CANARY);
  });
  afterAll(async () => {
    await own?.dispose();
  });
  const agents = () => `/api/v1/organizations/${own.org.organization_id}/agents`;

  it.each(["AUTH_SECRET", "SIGNING_SECRET", "AWS_SECRET_ACCESS_KEY", "DATABASE_URL", "PATH"])(
    "refuses %s as api_key_env when the agent is saved, naming the field",
    async (name) => {
      const res = await own.call("POST", agents(), {
        auth: own.org.user_token,
        body: openAiAgent({ api_key_env: name }),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.code).toBe("invalid_agent");
      expect(res.body.error.details.fields).toEqual([
        { field: "runtime.api_key_env", message: expect.stringMatching(/MODEL_KEY_ENV_ALLOWLIST/) },
      ]);
    },
  );

  it("refuses it in a workflow llm step's runtime and in an update of an existing agent", async () => {
    const workflow = await own.call("POST", agents(), {
      auth: own.org.user_token,
      body: {
        name: "wf",
        kind: "workflow",
        runtime: { type: "echo" },
        workflow: {
          inputs: { rows: { type: "array", required: true } },
          items: { from: "rows" },
          steps: [
            {
              id: "ask",
              type: "llm",
              prompt: "{{item}}",
              runtime: { type: "openai", base_url: `${upstream.url}/v1`, model: "m", api_key_env: "AUTH_SECRET" },
            },
          ],
        },
      },
    });
    expect(workflow.status).toBe(400);
    expect(workflow.body.error.details.fields[0].field).toBe("workflow.steps.0.runtime.api_key_env");

    const agentId = await own.createAgent({ name: "echo", kind: "conversational", runtime: { type: "echo" } });
    const patch = await own.call("PATCH", `${agents()}/${agentId}`, {
      auth: own.org.user_token,
      body: { runtime: { type: "openai", base_url: `${upstream.url}/v1`, model: "m", api_key_env: "AUTH_SECRET" } },
    });
    expect(patch.status).toBe(400);
    expect(patch.body.error.code).toBe("invalid_agent");

    // The agent still answers with its echo runtime, and the attacker's host heard nothing.
    const key = await own.mintKey();
    const trigger = await own.call("POST", `/api/agents/webhook/${agentId}`, { auth: key, body: { message: "hi" } });
    expect(trigger.status).toBe(200);
    expect(trigger.body.response).toBe("Echo: hi");
    for (const value of Object.values(CANARY)) expect(received()).not.toContain(value);
  });

  it("an agent saved while the operator allowed a variable fails its next call once it is no longer allowed", async () => {
    await own.restart("SIGTERM", { MODEL_KEY_ENV_ALLOWLIST: "LEGACY_MODEL_KEY", LEGACY_MODEL_KEY: "sk-legacy-0000" });
    const agentId = await own.createAgent(openAiAgent({ api_key_env: "LEGACY_MODEL_KEY" }));
    const key = await own.mintKey();
    const ok = await own.call("POST", `/api/agents/webhook/${agentId}`, { auth: key, body: { message: "ping" } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const before = upstream.requests.length;

    await own.restart("SIGTERM", { MODEL_KEY_ENV_ALLOWLIST: "", LEGACY_MODEL_KEY: "sk-legacy-0000" });
    const refused = await own.call("POST", `/api/agents/webhook/${agentId}`, { auth: key, body: { message: "ping" } });
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe("upstream_error");
    expect(refused.body.error.message).toMatch(/MODEL_KEY_ENV_ALLOWLIST/);
    expect(refused.body.error.message).toMatch(/api_key_secret/);
    expect(upstream.requests.length).toBe(before);
  });

  it("refuses to start when the allowlist names a setting of the service", async () => {
    const started = own.restart("SIGTERM", { MODEL_KEY_ENV_ALLOWLIST: "AUTH_SECRET" });
    await expect(started).rejects.toThrow(/exited during start/);
    const logFile = /see (\S+)$/.exec(((await started.catch((e: Error) => e)) as Error).message)![1]!;
    expect(readFileSync(logFile, "utf8")).toContain("MODEL_KEY_ENV_ALLOWLIST: AUTH_SECRET is a setting of the service");
  });
});

/** Every run of 4 characters of `value` (what no answer or log line may carry), but its common "sk-" start. */
/**
 * The four-character runs of a value that could only come from it: those of lower-case letters and
 * dashes alone ("k-se") are words of the log's own paths too (".../webhook-secret").
 */
// Eight characters a run: a shorter run of letters and digits turns up by chance inside the log's
// random ids (four characters did, about once in a run of the whole suite on PostgreSQL).
const runsOf = (value: string) =>
  Array.from({ length: value.length - 7 }, (_, i) => value.slice(i, i + 8)).filter(
    (r) => !r.startsWith("sk-") && /[^a-z-]/.test(r),
  );

describe("T-SECRET-2 organization secrets are write-only, used only by their organization's agents", () => {
  const VALUE = "sk-org-a-model-key-0123456789abcdef";
  const ROTATED = "sk-org-a-rotated-key-9876543210fedcba";
  const { orgA, orgB } = { orgA: () => ctx().orgA, orgB: () => ctx().orgB };
  const secrets = (org: { organization_id: string }) => `/api/v1/organizations/${org.organization_id}/secrets`;

  it("never answers a value, uses it for the agent's calls, and rotates", async () => {
    const created = await call("PUT", `${secrets(orgA())}/openai-prod`, {
      auth: orgA().user_token,
      body: { value: VALUE },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "openai-prod", hint: VALUE.slice(-4), used_by: [] });
    expect(created.text).not.toContain(VALUE.slice(0, -4));

    const agent = await call("POST", `/api/v1/organizations/${orgA().organization_id}/agents`, {
      auth: orgA().user_token,
      body: openAiAgent({ api_key_secret: "openai-prod" }),
    });
    expect(agent.status, agent.text).toBe(201);
    const key = (await mintKey(orgA())).key;
    const trigger = await call("POST", `/api/agents/webhook/${agent.body.agent_id}`, {
      auth: key,
      body: { message: "ping" },
    });
    expect(trigger.status, trigger.text).toBe(200);
    expect(upstream.requests.at(-1)!.headers.authorization).toBe(`Bearer ${VALUE}`);

    const list = await call("GET", secrets(orgA()), { auth: orgA().user_token });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(VALUE);
    expect(list.body.secrets.find((s: { name: string }) => s.name === "openai-prod").used_by).toEqual([
      { agent_id: agent.body.agent_id, name: "exfiltrate", fields: ["runtime.api_key_secret"] },
    ]);

    const rotated = await call("PUT", `${secrets(orgA())}/openai-prod`, {
      auth: orgA().user_token,
      body: { value: ROTATED },
    });
    expect(rotated.status).toBe(200);
    // The cache of another process would take KEY_CACHE_TTL_MS; this one forgets at once.
    await call("POST", `/api/agents/webhook/${agent.body.agent_id}`, { auth: key, body: { message: "ping" } });
    expect(upstream.requests.at(-1)!.headers.authorization).toBe(`Bearer ${ROTATED}`);

    const del = await call("DELETE", `${secrets(orgA())}/openai-prod`, { auth: orgA().user_token });
    expectError(del, 409, "secret_in_use");
    expect(del.body.error.details.used_by[0].agent_id).toBe(agent.body.agent_id);

    const admin = await signIn("admin-a@example.com");
    const auditLog = await admin.call("GET", orgPath("/audit?limit=100"));
    const actions = (auditLog.body.events as { action: string; data: unknown }[]).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["secret.created", "secret.rotated", "secret.referenced"]));
    expect(auditLog.text).not.toContain(VALUE);
    expect(auditLog.text).not.toContain(ROTATED);
  });

  it("is invisible to another organization and to support members", async () => {
    // Org B's admin on org A's secrets: as if the organization did not exist.
    expectError(await call("GET", secrets(orgA()), { auth: orgB().user_token }), 404, "organization_not_found");
    expectError(
      await call("PUT", `${secrets(orgA())}/openai-prod`, { auth: orgB().user_token, body: { value: "x" } }),
      404,
      "organization_not_found",
    );
    // Org B cannot name org A's secret: it has none by that name.
    const stolen = await call("POST", `/api/v1/organizations/${orgB().organization_id}/agents`, {
      auth: orgB().user_token,
      body: openAiAgent({ api_key_secret: "openai-prod" }),
    });
    expectError(stolen, 400, "invalid_agent");
    expect(stolen.body.error.details.fields[0].field).toBe("runtime.api_key_secret");
    // Support: no secrets at all, by API or console.
    expectError(await call("GET", secrets(orgA()), { auth: ctx().supportA.user_token }), 403, "forbidden");
    const support = await signIn("support-a@example.com");
    expectError(await support.call("GET", secrets(orgA())), 403, "forbidden");
  });

  it("refuses values that could split a header, and malformed names", async () => {
    const bad = await call("PUT", `${secrets(orgA())}/crlf`, {
      auth: orgA().user_token,
      body: { value: "sk-abc\r\nX-Injected: 1" },
    });
    expectError(bad, 400, "invalid_request");
    expectError(
      await call("PUT", `${secrets(orgA())}/..%2F..%2Fetc`, { auth: orgA().user_token, body: { value: "x" } }),
      400,
      "invalid_request",
    );
  });

  it("refuses values no HTTP header can carry, naming the field, and no answer or log line holds any part of them", async () => {
    const refused = [
      "sk-euro-€-Qw7rT2yU9iO4pA", // above U+00FF
      "sk-nel-\u0085-Lk3jH8gF5dS1", // a C1 control character
      "sk-sep-\u2028-Mn6bV0cX2zA8", // the line separator
      "sk-emoji-\u{1F511}-Ty5rE4wQ", // outside the basic plane
      "sk-tab-\t-Pq9wE8rT7yU6", // a control character of ASCII
    ];
    for (const value of refused) {
      const res = await call("PUT", `${secrets(orgA())}/header-unsafe`, { auth: orgA().user_token, body: { value } });
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.fields).toEqual([
        { field: "value", message: expect.stringContaining("HTTP header") },
      ]);
      for (const run of runsOf(value)) expect(res.text).not.toContain(run);
    }
    const listed = await call("GET", secrets(orgA()), { auth: orgA().user_token });
    expect(listed.body.secrets.map((s: { name: string }) => s.name)).not.toContain("header-unsafe");
    // Latin-1 is what a header carries: accepted.
    const latin = await call("PUT", `${secrets(orgA())}/header-latin1`, {
      auth: orgA().user_token,
      body: { value: "clé-Überprüfung-ñ 12345" },
    });
    expect(latin.status, latin.text).toBe(201);
    const log = readFileSync(ctx().logFile, "utf8");
    for (const value of refused) for (const run of runsOf(value)) expect(log).not.toContain(run);
  });
});

describe("T-SECRET-3 credentials in an agent's configuration are redacted for every role", () => {
  const LITERAL = "literal-header-credential-0123456789";
  const PROMPT_KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz0123";

  it("shows no header value or credential in a URL, and keeps them on an unchanged save", async () => {
    const { orgA } = ctx();
    await call("PUT", `/api/v1/organizations/${orgA.organization_id}/secrets/tenant-token`, {
      auth: orgA.user_token,
      body: { value: "tenant-token-value-0123456789" },
    });
    const created = await call("POST", `/api/v1/organizations/${orgA.organization_id}/agents`, {
      auth: orgA.user_token,
      body: {
        name: "http agent",
        kind: "conversational",
        runtime: {
          type: "http",
          url: `${upstream.url}/reply?api_key=query-key-123&mode=x`,
          headers: { "x-api-key": LITERAL, Authorization: "Bearer {{secrets.tenant-token}}" },
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    const agentId = created.body.agent_id as string;
    const admin = await signIn("admin-a@example.com");
    const support = await signIn("support-a@example.com");
    const views = [
      created,
      await call("GET", `/api/v1/organizations/${orgA.organization_id}/agents/${agentId}`, { auth: orgA.user_token }),
      await call("GET", `/api/v1/organizations/${orgA.organization_id}/agents`, { auth: orgA.user_token }),
      await admin.call("GET", `/api/v1/organizations/${orgA.organization_id}/agents/${agentId}`),
      await support.call("GET", `/api/v1/organizations/${orgA.organization_id}/agents/${agentId}`),
      await support.call("GET", `/api/v1/organizations/${orgA.organization_id}/agents?limit=500`),
    ];
    for (const view of views) {
      expect(view.status).toBe(200 + (view === created ? 1 : 0));
      for (const secret of [LITERAL, "query-key-123", "tenant-token-value"]) {
        expect(view.text).not.toContain(secret);
      }
    }
    const shown = views[1]!.body.runtime;
    expect(shown.headers).toEqual({ "x-api-key": "[redacted]", Authorization: "Bearer {{secrets.tenant-token}}" });

    // The console's edit: send back what was shown, with a new timeout, and publish it (the trigger
    // below is then served by the saved version); the credentials stay.
    const saved = await admin.call("PATCH", `/api/v1/organizations/${orgA.organization_id}/agents/${agentId}`, {
      runtime: { ...shown, timeout_ms: 15_000 },
      base_version: 1,
      publish: true,
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ published_version: 2, runtime: { timeout_ms: 15_000 } });
    const key = (await mintKey(orgA)).key;
    const trigger = await call("POST", `/api/agents/webhook/${agentId}`, { auth: key, body: { message: "hi" } });
    expect(trigger.status, trigger.text).toBe(200);
    const req = upstream.requests.at(-1)!;
    expect(req.headers["x-api-key"]).toBe(LITERAL);
    expect(req.headers.authorization).toBe("Bearer tenant-token-value-0123456789");
    expect(req.path).toBe("/reply?api_key=query-key-123&mode=x");
    expect(req.headers.authorization).not.toContain("{{");
  });

  it("redacts a key pasted into a system prompt", async () => {
    const { orgA } = ctx();
    const created = await call("POST", `/api/v1/organizations/${orgA.organization_id}/agents`, {
      auth: orgA.user_token,
      body: openAiAgent({ system: `Use ${PROMPT_KEY} when asked.` }),
    });
    expect(created.status, created.text).toBe(201);
    expect(created.text).not.toContain(PROMPT_KEY);
    expect(created.body.runtime.system).toBe("Use [redacted] when asked.");
  });
});

describe("T-HEADER-2 an agent's headers cannot split or frame an upstream request", () => {
  it("refuses header values with line breaks, framing headers, and credentials in URLs, naming the field", async () => {
    const { orgA } = ctx();
    const injected = await call("POST", `/api/v1/organizations/${orgA.organization_id}/agents`, {
      auth: orgA.user_token,
      body: {
        name: "inject",
        kind: "conversational",
        runtime: { type: "http", url: `${upstream.url}/reply`, headers: { "x-a": "1\r\nHost: evil.example" } },
      },
    });
    expectError(injected, 400, "invalid_request");
    expect(injected.body.error.details.fields[0].field).toBe("runtime.headers.x-a");
    const framing = await call("POST", `/api/v1/organizations/${orgA.organization_id}/agents`, {
      auth: orgA.user_token,
      body: {
        name: "host",
        kind: "conversational",
        runtime: { type: "http", url: `${upstream.url}/reply`, headers: { Host: "internal.example" } },
      },
    });
    expectError(framing, 400, "invalid_request");
    const userinfo = await call("POST", `/api/v1/organizations/${orgA.organization_id}/agents`, {
      auth: orgA.user_token,
      body: openAiAgent({ base_url: upstream.url.replace("http://", "http://user:pass@") }),
    });
    expectError(userinfo, 400, "invalid_request");
    expect(userinfo.body.error.details.fields[0].field).toBe("runtime.base_url");
    // The same rules for an http step's headers in a workflow.
    const step = await call("POST", `/api/v1/organizations/${orgA.organization_id}/agents`, {
      auth: orgA.user_token,
      body: {
        name: "step",
        kind: "workflow",
        runtime: { type: "echo" },
        workflow: {
          inputs: { rows: { type: "array", required: true } },
          items: { from: "rows" },
          steps: [{ id: "h", type: "http", url: `${upstream.url}/x`, headers: { "Transfer-Encoding": "chunked" } }],
        },
      },
    });
    expectError(step, 400, "invalid_request");
    expect(step.body.error.details.fields[0].field).toBe("workflow.steps.0.headers.Transfer-Encoding");
  });
});
