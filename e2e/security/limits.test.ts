// Threat model row T-LIMIT-1 (docs/security.md): what one caller sends is bounded in size, depth,
// time and rate; each bound answers in the error envelope, and the server goes on answering others.
import net from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createAgent, ctx, ECHO_AGENT, expectError, mintKey } from "../api/helpers";

let key: string;
let agentId: string;
beforeAll(async () => {
  key = (await mintKey(ctx().orgA)).key;
  agentId = (await createAgent(ctx().orgA, ECHO_AGENT)).agent_id;
});

/** Sends raw bytes and reads the answer's status line (the server may close the connection after it). */
function raw(bytes: string | Buffer): Promise<string> {
  const { port } = new URL(ctx().baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1", () => socket.write(bytes));
    let text = "";
    socket.on("data", (d) => {
      text += d.toString("latin1");
      if (text.includes("\r\n\r\n")) socket.destroy();
    });
    socket.on("close", () => resolve(text));
    socket.on("error", (e) => (text ? resolve(text) : reject(e)));
  });
}

describe("T-LIMIT-1 bodies, headers, nesting and request rates are bounded", () => {
  it("refuses a JSON body over 1 MiB with 413 payload_too_large", async () => {
    const res = await call("POST", `/api/agents/webhook/${agentId}`, {
      auth: key,
      body: { message: "x".repeat(1024 * 1024 + 1) },
    });
    expectError(res, 413, "payload_too_large");
  });

  it("refuses JSON nested deeper than 100 levels with 400, without recursing through it", async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
    const res = await call("POST", `/api/agents/webhook/${agentId}`, {
      auth: key,
      raw: `{"message":"hi","metadata":${deep.slice(0, 900_000)}}`,
      headers: { "content-type": "application/json" },
    });
    expect([400], res.text).toContain(res.status);
  });

  it("refuses request headers over MAX_HEADER_BYTES with 431, and the server answers the next request", async () => {
    const answer = await raw(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431/);
    expect((await call("GET", "/api/health")).status).toBe(200);
  });

  it("limits a key's requests a minute: 429 rate_limited with Retry-After, other keys unaffected", async () => {
    const { orgA } = ctx();
    const minted = await call("POST", `/api/v1/organizations/${orgA.organization_id}/access-keys`, {
      auth: orgA.user_token,
      body: { name: "limited", permissions: ["agents:invoke"], rate_limit_per_minute: 2 },
    });
    const limited = minted.body.key as string;
    const send = (k: string) => call("POST", `/api/agents/webhook/${agentId}`, { auth: k, body: { message: "hi" } });
    expect((await send(limited)).status).toBe(200);
    expect((await send(limited)).status).toBe(200);
    const refused = await send(limited);
    expectError(refused, 429, "rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await send(key)).status).toBe(200);
  });
});
