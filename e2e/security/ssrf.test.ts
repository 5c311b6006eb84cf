// Guarded upstream calls (docs/deploy.md "Outgoing calls"): a server started without
// ALLOW_PRIVATE_UPSTREAMS refuses an agent's metadata and loopback upstreams (by address, by a
// name that resolves to loopback, in decimal or IPv4-mapped form, and as a redirect target). The
// trigger answers as for any upstream error (502 upstream_error), and the message ends `error` with
// our wording, which names the setting; UPSTREAM_ALLOWLIST lets a listed local host through.
// lib/net/ssrf-classes.test.ts has every address class, table-driven.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownServer, type OwnServer } from "../api/server";

let own: OwnServer;
let key: string;
let upstream: http.Server;
let upstreamUrl: string;
let upstreamRequests = 0;

beforeAll(async () => {
  // Explicitly off (the suites' servers allow private upstreams for their fake upstreams).
  own = await ownServer("ssrf", { ALLOW_PRIVATE_UPSTREAMS: "false", UPSTREAM_ALLOWLIST: "" });
  key = await own.mintKey();
  upstream = http.createServer((req, res) => {
    upstreamRequests++;
    req.resume();
    // `/redirect?to=URL`: a 302 to URL (an allowed upstream that bounces the call elsewhere).
    const to = new URL(req.url ?? "/", "http://x").searchParams.get("to");
    req.on("end", () =>
      to
        ? res.writeHead(302, { location: to }).end()
        : res.writeHead(200, { "content-type": "application/json" }).end('{"content":"local reply"}'),
    );
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/reply`;
});
afterAll(async () => {
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
  await own?.dispose();
});

const httpAgent = (name: string, url: string) =>
  own.createAgent({ name, kind: "conversational", runtime: { type: "http", url, timeout_ms: 5_000 } });

const trigger = (agentId: string) =>
  own.call("POST", `/api/agents/webhook/${agentId}`, { auth: key, body: { message: "hello" } });

/** The stored message of a failed sync trigger. */
async function failedMessage(agentId: string, res: Awaited<ReturnType<typeof trigger>>) {
  expect(res.status, JSON.stringify(res.body)).toBe(502);
  expect(res.body.error.code).toBe("upstream_error");
  const { session_id, message_id } = res.body.error.details;
  expect(session_id).toMatch(/^sess_/);
  expect(message_id).toMatch(/^msg_/);
  const stored = await own.call("GET", `/api/agents/${agentId}/sessions/${session_id}/messages/${message_id}`, {
    auth: key,
  });
  expect(stored.status).toBe(200);
  expect(stored.body.status).toBe("error");
  expect(stored.body.error.code).toBe("message_processing_failed");
  return stored.body;
}

describe("T-SSRF-1 guarded upstream calls", () => {
  it("refuses an http runtime on the cloud metadata address: 502 upstream_error, the message says why", async () => {
    const agentId = await httpAgent("metadata", "http://169.254.169.254/latest/meta-data/");
    const res = await trigger(agentId);
    const stored = await failedMessage(agentId, res);
    expect(stored.error.message).toBe(
      "upstream address 169.254.169.254 is a cloud metadata address and always refused",
    );
  });

  it("refuses a loopback upstream without the setting and names it; nothing reaches the upstream", async () => {
    const agentId = await httpAgent("loopback", upstreamUrl);
    const res = await trigger(agentId);
    const stored = await failedMessage(agentId, res);
    expect(stored.error.message).toBe(
      "upstream 127.0.0.1 is a loopback address; set ALLOW_PRIVATE_UPSTREAMS=true or add the host to UPSTREAM_ALLOWLIST",
    );
    expect(upstreamRequests).toBe(0);
  });

  it.each([
    [
      "a host name that resolves to it (localhost)",
      "localhost",
      /^upstream host localhost resolves to a loopback address; /,
    ],
    ["its decimal form (2130706433)", "2130706433", /^upstream 127\.0\.0\.1 is a loopback address; /],
    ["its IPv4-mapped IPv6 form", "[::ffff:127.0.0.1]", /is an IPv4-mapped loopback address; /],
  ])("refuses the loopback upstream by %s without the setting", async (_label, host, message) => {
    const before = upstreamRequests;
    const agentId = await httpAgent(`loopback ${host}`, upstreamUrl.replace("127.0.0.1", host));
    const stored = await failedMessage(agentId, await trigger(agentId));
    expect(stored.error.message).toMatch(message);
    // The caller's wording never says what a host name resolved to.
    if (host === "localhost") expect(stored.error.message).not.toContain("127.0.0.1");
    expect(upstreamRequests).toBe(before);
  });

  it("lets a host listed in UPSTREAM_ALLOWLIST through, and still refuses the metadata address", async () => {
    const port = new URL(upstreamUrl).port;
    await own.restart("SIGTERM", { UPSTREAM_ALLOWLIST: `127.0.0.1:${port},169.254.169.254` });
    const agentId = await httpAgent("listed", upstreamUrl);
    const ok = await trigger(agentId);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.response).toBe("local reply");
    expect(upstreamRequests).toBe(1);

    const metadata = await httpAgent("metadata listed", "http://169.254.169.254/");
    const stored = await failedMessage(metadata, await trigger(metadata));
    expect(stored.error.message).toContain("always refused");
  });

  it("refuses a redirect from an allowed upstream to 169.254.169.254 (allowlisted above: still refused)", async () => {
    // The server runs with UPSTREAM_ALLOWLIST=127.0.0.1:<port>,169.254.169.254 since the test above.
    const before = upstreamRequests;
    const to = "http://169.254.169.254/latest/meta-data/iam/security-credentials/";
    const agentId = await httpAgent(
      "redirects",
      `${upstreamUrl.replace("/reply", "/redirect")}?to=${encodeURIComponent(to)}`,
    );
    const stored = await failedMessage(agentId, await trigger(agentId));
    expect(stored.error.message).toBe(
      "upstream address 169.254.169.254 is a cloud metadata address and always refused",
    );
    expect(upstreamRequests).toBe(before + 1); // the allowed upstream, and nothing after it
  });
});
