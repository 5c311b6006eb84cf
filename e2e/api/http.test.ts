// The shared HTTP layer: envelope, request ids, body limits, malformed JSON, unknown query params.
import http from "node:http";
import { describe, expect, it } from "vitest";
import { call, ctx, expectError } from "./helpers";

const keysPath = () => `/api/v1/organizations/${ctx().orgA.organization_id}/access-keys`;

/**
 * Sends at most `sendAtMost` body bytes (in 64 KiB chunks), then neither sends more nor ends the
 * body: the answer can only come from a server that decided without the rest (a server waiting for
 * the whole body never answers, and the test fails by its time limit).
 */
function streamBody(path: string, sendAtMost: number, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const url = new URL(ctx().baseUrl + path);
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers });
    let sent = 0;
    let answered = false;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => {
        resolve({ status: res.statusCode!, body });
        req.destroy();
      });
    });
    req.on("error", (e) => (answered ? undefined : reject(e)));
    req.flushHeaders();
    const pump = () => {
      while (sent < sendAtMost && !answered) {
        sent += chunk.length;
        if (!req.write(chunk)) return req.once("drain", pump);
      }
    };
    pump();
  });
}

describe("HTTP layer", () => {
  it("puts X-Request-Id on successes and errors, matching the envelope's request_id", async () => {
    const ok = await call("GET", "/api/health");
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ status: "ok" });
    expect(ok.headers.get("x-request-id")).toMatch(/^req_/);
    const err = await call("GET", keysPath());
    expectError(err, 401, "unauthorized");
    expect(Object.keys(err.body)).toEqual(["error"]);
    expect(Object.keys(err.body.error).sort()).toEqual(["code", "doc_url", "message", "request_id"]);
    expect(err.body.error.doc_url).toBe("/docs/api#error-unauthorized");
  });

  it("answers unknown API paths with 404 in the envelope", async () => {
    expectError(await call("GET", "/api/nope/nothing"), 404, "not_found");
    expectError(await call("POST", "/api/agents/agt_x/unknown", { body: {} }), 404, "not_found");
  });

  it("refuses malformed JSON with 400 invalid_json, other media types with 415", async () => {
    const { orgA } = ctx();
    const bad = await call("POST", keysPath(), {
      auth: orgA.user_token,
      raw: '{"name": ',
      headers: { "content-type": "application/json" },
    });
    expectError(bad, 400, "invalid_json");
    const text = await call("POST", keysPath(), {
      auth: orgA.user_token,
      raw: "name=x",
      headers: { "content-type": "text/plain" },
    });
    expectError(text, 415, "unsupported_media_type");
  });

  it("refuses a 50 MiB chunked body with 413 without reading it to the end", async () => {
    const { orgA } = ctx();
    // 2 MiB of a body that would be 50 MiB: past the 1 MiB limit, far from the end.
    const res = await streamBody(keysPath(), 2 * 1024 * 1024, {
      authorization: `Bearer ${orgA.user_token}`,
      "content-type": "application/json",
      "transfer-encoding": "chunked",
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe("payload_too_large");
  });

  it("refuses a declared 50 MiB Content-Length with 413 at once", async () => {
    const { orgA } = ctx();
    const total = 50 * 1024 * 1024;
    // Not one body byte is sent: the declared length alone must be refused.
    const res = await streamBody(keysPath(), 0, {
      authorization: `Bearer ${orgA.user_token}`,
      "content-type": "application/json",
      "content-length": String(total),
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe("payload_too_large");
  });

  it("accepts a body just under 1 MiB", async () => {
    const { orgA } = ctx();
    const name = "x".repeat(150);
    const padding = " ".repeat(1024 * 1024 - 200);
    const res = await call("POST", keysPath(), {
      auth: orgA.user_token,
      raw: `{"name": "${name}",${padding}"permissions": ["agents:invoke"]}`,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(201);
  });

  it("ignores unknown query parameters", async () => {
    const { orgA } = ctx();
    const res = await call("GET", `${keysPath()}?foo=bar&sort=zzz`, { auth: orgA.user_token });
    expect(res.status).toBe(200);
  });
});
