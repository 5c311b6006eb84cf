// No key, token or Bearer header ever reaches a log line: captured from the real server's output.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { call, createAgent, ctx, mintKey, revokeKey } from "../api/helpers";

describe("T-LOG-1 logs", () => {
  it("never contain an Access Key, a user token or an Authorization header", async () => {
    const { orgA, logFile } = ctx();
    const agent = await createAgent(orgA);
    const key = await mintKey(orgA);
    const revoked = await mintKey(orgA);
    await revokeKey(orgA, revoked.key_id);
    const ids: string[] = [];
    const requests = [
      call("GET", `/api/agents/${agent.agent_id}/sessions`, { auth: key.key }),
      call("GET", `/api/agents/${agent.agent_id}/sessions`, { auth: revoked.key }),
      call("GET", `/api/agents/${agent.agent_id}/sessions`, { auth: `${key.key}x` }),
      call("POST", `/api/agents/webhook/${agent.agent_id}`, {
        auth: key.key,
        raw: "{bad json",
        headers: { "content-type": "application/json" },
      }),
      call("GET", `/api/v1/organizations/${orgA.organization_id}/access-keys`, { auth: orgA.user_token }),
      call("GET", `/api/v1/organizations/${orgA.organization_id}/access-keys`, {
        auth: `Basic ${Buffer.from(key.key).toString("base64")}`,
      }),
    ];
    for (const res of await Promise.all(requests)) ids.push(res.headers.get("x-request-id")!);
    await new Promise((r) => setTimeout(r, 300)); // let the log stream flush
    const log = readFileSync(logFile, "utf8");
    // The log is the right one and complete: every request above has its line.
    for (const id of ids) expect(log).toContain(id);
    for (const secret of [key.key, revoked.key, orgA.user_token, Buffer.from(key.key).toString("base64")]) {
      expect(log).not.toContain(secret);
    }
    expect(log).not.toMatch(/bearer/i);
    expect(log).not.toMatch(/"authorization"\s*:\s*"(?!\[redacted\])/i);
    expect(log).not.toMatch(/\b(ak|ut)_[0-9A-Za-z]{43}\b/);
  });
});

describe("request log lines", () => {
  it("carry the request id the answer's X-Request-Id names, with method, path and status", async () => {
    const { logFile } = ctx();
    const ok = await call("GET", "/api/health?from=logs-test");
    const missing = await call("GET", "/api/no-such-route-for-logs");
    const ids = [ok, missing].map((r) => r.headers.get("x-request-id")!);
    expect(ids.every((id) => /^req_/.test(id))).toBe(true);
    const lineOf = (id: string) =>
      readFileSync(logFile, "utf8")
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.msg === "request" && l.request_id === id);
    const deadline = Date.now() + 10_000;
    while (ids.some((id) => !lineOf(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(lineOf(ids[0]!)).toMatchObject({ request_id: ids[0], method: "GET", path: "/api/health", status: 200 });
    expect(lineOf(ids[1]!)).toMatchObject({
      request_id: ids[1],
      method: "GET",
      path: "/api/no-such-route-for-logs",
      status: 404,
    });
  });
});
