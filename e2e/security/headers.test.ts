// Threat model row T-HEADER-1 (docs/security.md): a value a caller stores (an uploaded file's type or
// name) never breaks or splits a response header. Before, a tus `filetype` with CR/LF or 8,000
// characters was accepted and every later download of the file answered 500.
import { beforeAll, describe, expect, it } from "vitest";
import { startFakeUpstream } from "../../lib/runtime/testing";
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
