// Threat model rows T-HEADER-1, T-HEADER-3 and T-FRAME-1 (docs/security.md): a value a caller stores (an uploaded file's type or
// name) never breaks or splits a response header. Before, a tus `filetype` with CR/LF or 8,000
// characters was accepted and every later download of the file answered 500.
import { beforeAll, describe, expect, it } from "vitest";
import { startFakeUpstream } from "../../test-support/runtime";
import { call, createAgent, ctx, ECHO_AGENT, expectError, mintKey } from "../api/helpers";

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

let key: string;
let agentId: string;
beforeAll(async () => {
  key = (await mintKey(ctx().orgA)).key;
  agentId = (await createAgent(ctx().orgA, ECHO_AGENT)).agent_id;
});

function createTus(agent: string, metadata: Record<string, string>) {
  return call("POST", `/api/agents/${agent}/upload/tus`, {
    auth: key,
    headers: {
      "tus-resumable": "1.0.0",
      "upload-length": "5",
      "upload-metadata": Object.entries(metadata)
        .map(([k, v]) => `${k} ${b64(v)}`)
        .join(","),
    },
  });
}

describe("T-HEADER-1 stored file names and types never break a response header", () => {
  it.each([
    ["a line break", "text/plain\r\nSet-Cookie: stolen=1"],
    ["8,000 characters", `text/${"x".repeat(8000)}`],
    ["no subtype", "text"],
  ])("tus: refuses a filetype with %s, naming the field", async (_, filetype) => {
    const res = await createTus(agentId, { filename: "a.txt", filetype });
    expectError(res, 400, "invalid_request");
    expect(res.body.error.details.fields[0].field).toBe("Upload-Metadata.filetype");
  });

  it("a file with a hostile name and a valid type downloads with safe headers", async () => {
    // An http agent: its upstream receives the trigger's attachments with their signed links.
    const upstream = await startFakeUpstream();
    upstream.answer(() => ({ json: { content: "seen" } }));
    try {
      const seer = await createAgent(ctx().orgA, {
        name: "sees files",
        kind: "conversational",
        runtime: { type: "http", url: `${upstream.url}/reply` },
      });
      const created = await createTus(seer.agent_id, {
        filename: 'x"\r\nSet-Cookie: stolen=1.txt',
        filetype: "text/plain; charset=utf-8",
      });
      expect(created.status, created.text).toBe(201);
      const patched = await call("PATCH", created.headers.get("location")!, {
        auth: key,
        raw: "hello",
        headers: { "tus-resumable": "1.0.0", "upload-offset": "0", "content-type": "application/offset+octet-stream" },
      });
      expect(patched.status, patched.text).toBe(204);
      const reply = await call("POST", `/api/agents/webhook/${seer.agent_id}`, {
        auth: key,
        body: { message: "see file", attachments: [{ file_id: patched.headers.get("upload-file-id") }] },
      });
      expect(reply.status, reply.text).toBe(200);
      const sent = upstream.requests.at(-1)!.body as { attachments: { url: string }[] };
      const url = new URL(sent.attachments[0]!.url);
      const download = await fetch(`${ctx().baseUrl}${url.pathname}${url.search}`);
      expect(download.status).toBe(200);
      expect(download.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(download.headers.get("set-cookie")).toBeNull();
      expect(download.headers.get("content-disposition")).toMatch(
        /^attachment; filename="x___Set-Cookie: stolen=1.txt"/,
      );
      expect(await download.text()).toBe("hello");
    } finally {
      await upstream.close();
    }
  });
});

describe("T-HEADER-3 an alert rule's name cannot add a header to its emails", () => {
  it("a name with a line break or another control character is refused naming the field; the rule is not made", async () => {
    const { orgA } = ctx();
    const rules = `/api/v1/organizations/${orgA.organization_id}/alert-rules`;
    for (const name of ["oncall\r\nBcc: victim@evil.test", "oncall\nX-Priority: 1", "tab\there", "nul\u0000"]) {
      const res = await call("POST", rules, {
        auth: orgA.user_token,
        body: { name, kind: "review_waiting", threshold: 60, email: "oncall@example.com" },
      });
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(["name"]);
    }
    const list = await call("GET", `${rules}?limit=500`, { auth: orgA.user_token });
    expect(list.body.alert_rules.some((r: { name: string }) => /victim|X-Priority/.test(r.name))).toBe(false);
  });
});

describe("T-FRAME-1 every answer carries the browser security headers; no other site may frame one", () => {
  const API_CSP = "default-src 'none'; frame-ancestors 'none'";

  /** The headers every answer carries, whoever wrote it (a page, a route, the server's own envelope). */
  function expectBrowserHeaders(res: Response, referrer = "strict-origin-when-cross-origin") {
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe(referrer);
    expect(res.headers.get("permissions-policy")).toBe("camera=(), microphone=(), geolocation=(), payment=(), usb=()");
    // PUBLIC_URL is not https here: no HSTS (lib/http/security-headers.test.ts covers https).
    expect(res.headers.get("strict-transport-security")).toBeNull();
  }

  it("a page: a fresh script nonce its scripts carry, no inline script without it, no inline event handler", async () => {
    const nonces = new Set<string>();
    for (const path of ["/login", "/docs/api", "/no-such-page"]) {
      const res = await fetch(`${ctx().baseUrl}${path}`, { redirect: "manual" });
      expect([200, 404], path).toContain(res.status);
      expectBrowserHeaders(res);
      const csp = res.headers.get("content-security-policy")!;
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce, csp).toBeTruthy();
      expect(csp).toContain("'strict-dynamic'");
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
      nonces.add(nonce!);
      const html = await res.text();
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
      expect(html, path).not.toMatch(/<[a-z][^>]*\son[a-z]+=/i);
    }
    expect(nonces.size).toBe(3);
  });

  it("an invitation page, whose URL holds a token, sends no referrer", async () => {
    const res = await fetch(`${ctx().baseUrl}/invite/inv_not-a-real-token`, { redirect: "manual" });
    expectBrowserHeaders(res, "no-referrer");
  });

  it("an API answer, an error envelope, the server's own 405 and 400, and a static file", async () => {
    const base = ctx().baseUrl;
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    expectBrowserHeaders(health);
    expect(health.headers.get("content-security-policy")).toBe(API_CSP);

    const missing = await fetch(`${base}/api/agents/agt_missing/messages/msg_missing`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe("not_found");
    expectBrowserHeaders(missing);
    expect(missing.headers.get("content-security-policy")).toBe(API_CSP);

    for (const method of ["DELETE", "PROPFIND"]) {
      const refused = await fetch(`${base}/api/health`, { method });
      expect(refused.status, method).toBe(405);
      expect((await refused.json()).error.code).toBe("method_not_allowed");
      expectBrowserHeaders(refused);
      expect(refused.headers.get("content-security-policy")).toBe(API_CSP);
    }

    const undecodable = await fetch(`${base}/api/%ff`);
    expect(undecodable.status).toBe(400);
    expectBrowserHeaders(undecodable);

    const html = await (await fetch(`${base}/login`)).text();
    const asset = /\/_next\/static\/[^"']+\.js/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    const file = await fetch(`${base}${asset}`);
    expect(file.status).toBe(200);
    expectBrowserHeaders(file);
    expect(file.headers.get("content-security-policy")).toBe(API_CSP);
  });

  it("Node's own refusal (431, headers too large) carries them too", async () => {
    const res = await fetch(`${ctx().baseUrl}/api/health`, { headers: { "x-big": "a".repeat(200_000) } });
    expect(res.status).toBe(431);
    expectBrowserHeaders(res);
  });
});
