// POST /api/agents/{agent_id}/upload (docs/api.md, Upload) through real HTTP: the success shape, the whole
// error table, and, on a server of our own with short timeouts and a storage fault, slow clients,
// mid-stream failures and disconnects (nothing may be left behind).
import { randomBytes } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipartEnvelope } from "../../lib/files/multipart-body";
import { call, createAgent, ctx, ECHO_AGENT, expectError, mintKey } from "./helpers";
import { onS3, pendingWrites, storedKeys } from "./s3-server";
import { ownServer, type DbTarget, type OwnServer } from "./server";

const FILE_ID = /^fi_[0-9a-f]{32}$/;

function form(parts: Array<[name: string, value: string | Blob, filename?: string]>): FormData {
  const f = new FormData();
  for (const [name, value, filename] of parts) {
    if (typeof value === "string") f.append(name, value);
    else f.append(name, value, filename);
  }
  return f;
}

const upload = (agentId: string, key: string, raw: BodyInit, headers?: Record<string, string>) =>
  call("POST", `/api/agents/${agentId}/upload`, { auth: key, raw, headers });

describe("upload: success and the upload error table", () => {
  let key: string;
  let agentId: string;
  let otherOrgKey: string;
  let otherOrgAgent: string;

  beforeAll(async () => {
    const { orgA, orgB } = ctx();
    key = (await mintKey(orgA)).key;
    agentId = (await createAgent(orgA, ECHO_AGENT)).agent_id;
    otherOrgKey = (await mintKey(orgB)).key;
    otherOrgAgent = (await createAgent(orgB, ECHO_AGENT)).agent_id;
  });

  it("stores one file part and answers 200 with exactly file_id, size_bytes, content_type, filename", async () => {
    const bytes = randomBytes(70_001);
    const res = await upload(agentId, key, form([["file", new Blob([bytes], { type: "image/png" }), "photo.png"]]));
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["content_type", "file_id", "filename", "size_bytes"]);
    expect(res.body.file_id).toMatch(FILE_ID);
    expect(res.body).toMatchObject({ size_bytes: 70_001, content_type: "image/png", filename: "photo.png" });
    expect(Number.isInteger(res.body.size_bytes)).toBe(true);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("reads the request's own body whatever a client puts in the server's internal raw-body header", async () => {
    // server.ts hands the upload its Node stream under a random id in x-awhs-raw-body and replaces
    // any value a client sent: a forged id finds nothing, and the whole body is read and stored.
    const bytes = randomBytes(200_003);
    for (const forged of ["00000000-0000-0000-0000-000000000000", ""]) {
      const res = await upload(agentId, key, form([["file", new Blob([bytes]), "raw.bin"]]), {
        "x-awhs-raw-body": forged,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.size_bytes).toBe(200_003);
    }
  });

  it("gives every upload a new file id", async () => {
    const a = await upload(agentId, key, form([["file", new Blob(["x"]), "a.txt"]]));
    const b = await upload(agentId, key, form([["file", new Blob(["x"]), "a.txt"]]));
    expect(a.body.file_id).not.toBe(b.body.file_id);
  });

  it("keeps a UTF-8 filename and ignores text fields beside the file", async () => {
    const res = await upload(
      agentId,
      key,
      form([
        ["note", "ignored"],
        ["file", new Blob(["a;b\n"], { type: "text/csv" }), "Übersicht März.csv"],
        ["other", "also ignored"],
      ]),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ filename: "Übersicht März.csv", content_type: "text/csv", size_bytes: 4 });
  });

  it("records the media type the client sent for the part (untyped Blob: application/octet-stream)", async () => {
    const res = await upload(agentId, key, form([["file", new Blob([randomBytes(10)]), "blob.bin"]]));
    expect(res.status, res.text).toBe(200);
    expect(res.body.content_type).toBe("application/octet-stream");
  });

  it("records a file part that names no media type as text/plain (the RFC 7578 default)", async () => {
    const env = multipartEnvelope({ filename: "untyped.dat" });
    const body = Buffer.concat([env.head, Buffer.from("abc"), env.tail]);
    const res = await upload(agentId, key, body, { "content-type": env.contentType });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ content_type: "text/plain", filename: "untyped.dat", size_bytes: 3 });
  });

  it("streams a 12 MiB file through (no proxy or middleware cuts the body at 10 MB)", async () => {
    const res = await upload(agentId, key, form([["file", new Blob([randomBytes(12 * 1024 * 1024)]), "big.bin"]]));
    expect(res.status, res.text).toBe(200);
    expect(res.body.size_bytes).toBe(12 * 1024 * 1024);
  });

  it("401 without a key", async () => {
    expectError(
      await call("POST", `/api/agents/${agentId}/upload`, { raw: form([["file", new Blob(["x"]), "x"]]) }),
      401,
      "unauthorized",
    );
  });

  it("404 for an agent of another organization, in both directions", async () => {
    const raw = () => form([["file", new Blob(["x"]), "x.txt"]]);
    expectError(await upload(agentId, otherOrgKey, raw()), 404, "agent_not_found");
    expectError(await upload(otherOrgAgent, key, raw()), 404, "agent_not_found");
  });

  it("404 for an agent that does not exist", async () => {
    expectError(
      await upload("agt_doesnotexist000000", key, form([["file", new Blob(["x"]), "x"]])),
      404,
      "agent_not_found",
    );
  });

  it.each([
    ["application/json", JSON.stringify({ file: "x" })],
    ["text/plain", "hello"],
    ["application/x-www-form-urlencoded", "file=x"],
    ["multipart/form-data", "--x\r\n\r\n--x--"],
    ["multipart/mixed; boundary=x", "--x\r\n\r\n--x--"],
  ])("415 unsupported_media_type for Content-Type %s", async (type, body) => {
    expectError(await upload(agentId, key, body, { "content-type": type }), 415, "unsupported_media_type");
  });

  it("415 unsupported_media_type without a Content-Type", async () => {
    expectError(await upload(agentId, key, new Uint8Array([1, 2, 3])), 415, "unsupported_media_type");
  });

  it("400 missing_file when no part is named file", async () => {
    expectError(await upload(agentId, key, form([["note", "only text"]])), 400, "missing_file");
    expectError(await upload(agentId, key, form([["document", new Blob(["x"]), "x.txt"]])), 400, "missing_file");
  });

  it("400 missing_file when the part named file is a text field, not a file", async () => {
    expectError(await upload(agentId, key, form([["file", "just text"]])), 400, "missing_file");
  });

  it("400 missing_file for a multipart body with no parts", async () => {
    expectError(
      await upload(agentId, key, "--b--\r\n", { "content-type": "multipart/form-data; boundary=b" }),
      400,
      "missing_file",
    );
  });

  it("400 empty_file when the file part has no bytes", async () => {
    expectError(await upload(agentId, key, form([["file", new Blob([]), "empty.txt"]])), 400, "empty_file");
  });

  it("400 invalid_request for more than one file part", async () => {
    const two = form([
      ["file", new Blob(["one"]), "1.txt"],
      ["file", new Blob(["two"]), "2.txt"],
    ]);
    const res = await upload(agentId, key, two);
    expectError(res, 400, "invalid_request");
    expect(res.body.error.message).toMatch(/exactly one file part/);
    const extra = form([
      ["file", new Blob(["one"]), "1.txt"],
      ["attachment", new Blob(["two"]), "2.txt"],
    ]);
    expectError(await upload(agentId, key, extra), 400, "invalid_request");
  });

  it("400 invalid_request for a truncated multipart body", async () => {
    const env = multipartEnvelope({ filename: "cut.txt", contentType: "text/plain" });
    const body = Buffer.concat([env.head, Buffer.from("no closing boundary")]);
    expectError(await upload(agentId, key, body, { "content-type": env.contentType }), 400, "invalid_request");
  });
});

// --- Our own server: short timeouts, a storage fault at 4 MiB, and a data folder we can inspect.

interface RawResult {
  status?: number;
  body?: any;
  /** Set when the connection ended without a response. */
  error?: string;
  /** Whether the whole request body had been written when the exchange ended. */
  sentAll: boolean;
}

/** A client that writes the body in chunks with pauses, or stops half-way and hangs up. */
function slowRequest(opts: {
  url: string;
  headers: Record<string, string>;
  chunks: Buffer[];
  pauseMs: number;
  abortAfterChunks?: number;
  beforeAbort?: () => Promise<void>;
}): Promise<RawResult> {
  return new Promise((resolve) => {
    let sentAll = false;
    let settled = false;
    const finish = (r: Omit<RawResult, "sentAll">) => {
      if (settled) return;
      settled = true;
      resolve({ ...r, sentAll });
    };
    const req = http.request(opts.url, { method: "POST", headers: opts.headers, agent: false });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => finish({ status: res.statusCode, body: text ? JSON.parse(text) : undefined }));
      res.on("error", (e) => finish({ status: res.statusCode, error: e.message }));
    });
    req.on("error", (e) => finish({ error: e.message }));
    req.on("close", () => setTimeout(() => finish({ error: "closed" }), 50));
    void (async () => {
      for (let i = 0; i < opts.chunks.length; i++) {
        if (settled || req.destroyed) return;
        if (opts.abortAfterChunks === i) {
          await opts.beforeAbort?.();
          req.destroy();
          return;
        }
        req.write(opts.chunks[i]);
        await new Promise((r) => setTimeout(r, opts.pauseMs));
      }
      sentAll = true;
      req.end();
    })();
  });
}

function split(buf: Buffer, parts: number): Buffer[] {
  const size = Math.ceil(buf.length / parts);
  return Array.from({ length: parts }, (_, i) => buf.subarray(i * size, (i + 1) * size)).filter((b) => b.length);
}

async function fileRows(target: DbTarget): Promise<string[]> {
  if (target.databaseUrl) {
    const c = new pg.Client({ connectionString: target.databaseUrl });
    await c.connect();
    try {
      return (await c.query<{ id: string }>("SELECT id FROM files ORDER BY id")).rows.map((r) => r.id);
    } finally {
      await c.end();
    }
  }
  // The embedded database allows one process: only read it once the server has stopped.
  const db = new PGlite(path.join(target.dataDir!, "pglite"));
  try {
    return (await db.query<{ id: string }>("SELECT id FROM files ORDER BY id")).rows.map((r) => r.id);
  } finally {
    await db.close();
  }
}

function parseJson(line: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(line);
    return typeof v === "object" && v !== null ? v : undefined;
  } catch {
    return undefined;
  }
}

async function waitFor(check: () => boolean, what: string, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function waitForAsync(check: () => Promise<boolean>, what: string, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("upload: slow clients, storage failures and disconnects (own server)", () => {
  // On S3 past the first 5 MiB part (a multipart upload exists when the fault or the hang-up comes).
  const FAULT_AT = (onS3() ? 8 : 4) * 1024 * 1024;
  let own: OwnServer;
  let key: string;
  let agentId: string;
  const stored: string[] = [];

  /** Stored objects that are not the successful uploads' files (temp files, leftovers). */
  const strays = async () => (await storedKeys(own.target)).filter((k) => !stored.some((id) => k.endsWith(id)));
  const uploadUrl = () => `${own.server.baseUrl}/api/agents/${agentId}/upload`;

  beforeAll(async () => {
    own = await ownServer("uploads", {
      REQUEST_TIMEOUT_MS: "1500",
      UPLOAD_TIMEOUT_MS: "20000",
      STORAGE_FAULT_AFTER_BYTES: String(FAULT_AT),
    });
    key = await own.mintKey();
    agentId = await own.createAgent(ECHO_AGENT);
  });

  afterAll(() => own?.dispose());

  it("accepts an upload that lasts longer than REQUEST_TIMEOUT_MS (uploads get UPLOAD_TIMEOUT_MS)", async () => {
    const content = randomBytes(64 * 1024);
    const env = multipartEnvelope({ filename: "slow.bin", contentType: "application/octet-stream" });
    const body = Buffer.concat([env.head, content, env.tail]);
    const started = Date.now();
    const res = await slowRequest({
      url: uploadUrl(),
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": env.contentType,
        "content-length": String(body.length),
      },
      chunks: split(body, 8),
      pauseMs: 500,
    });
    expect(Date.now() - started).toBeGreaterThan(1500 + 1000);
    expect(res.status, JSON.stringify(res)).toBe(200);
    expect(res.body).toMatchObject({ size_bytes: content.length, filename: "slow.bin" });
    stored.push(res.body.file_id);
  });

  it("cuts a slow body on a non-upload route after REQUEST_TIMEOUT_MS", async () => {
    const body = Buffer.from(JSON.stringify({ message: "x".repeat(4000) }));
    const res = await slowRequest({
      url: `${own.server.baseUrl}/api/agents/webhook/${agentId}`,
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "content-length": String(body.length),
      },
      chunks: split(body, 8),
      pauseMs: 500,
    });
    expect(res.sentAll).toBe(false);
    if (res.status !== undefined) {
      expect(res.status).toBe(408);
      expect(res.body.error.code).toBe("request_timeout");
    } else {
      expect(res.error).toBeDefined();
    }
  });

  it("answers 500 upload_failed when storage fails mid-stream, leaving no bytes behind", async () => {
    const content = randomBytes(FAULT_AT * 2);
    const env = multipartEnvelope({ filename: "fault.bin", contentType: "application/octet-stream" });
    const res = await fetch(uploadUrl(), {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": env.contentType },
      body: Buffer.concat([env.head, content, env.tail]),
    });
    const body = await res.json();
    expect([res.status, body.error.code]).toEqual([500, "upload_failed"]);
    expect(body.error.message).not.toMatch(/Injected|fault/i);
    expect(await strays()).toEqual([]);
    expect(await pendingWrites(own.target)).toEqual([]);
  });

  it("keeps no file record and no partial bytes when the client disconnects mid-upload, and logs a client abort", async () => {
    const logFrom = statSync(own.server.logFile).size;
    const env = multipartEnvelope({ filename: "gone.bin", contentType: "application/octet-stream" });
    const declared = env.length(50 * 1024 * 1024);
    // On S3 the first bytes leave the server once a 5 MiB part is full: more chunks before the hang-up.
    const count = onS3() ? 120 : 40;
    const chunks = [env.head, ...Array.from({ length: count }, () => randomBytes(64 * 1024))];
    const res = await slowRequest({
      url: uploadUrl(),
      headers: { authorization: `Bearer ${key}`, "content-type": env.contentType, "content-length": String(declared) },
      chunks,
      pauseMs: 10,
      abortAfterChunks: count - 10,
      // Hang up only once storage holds partial bytes (a temp file, a multipart upload's first
      // part), so that there is something to clean up.
      beforeAbort: () => waitForAsync(async () => (await pendingWrites(own.target)).length > 0, "partial bytes stored"),
    });
    expect(res.status).toBeUndefined();
    await waitForAsync(async () => (await pendingWrites(own.target)).length === 0, "the partial upload to be removed");
    expect(await strays()).toEqual([]);

    // The log: the request as a client abort (warn, 499), no error line, no 500, nothing unhandled.
    const uploadPath = `/api/agents/${agentId}/upload`;
    const newLines = () =>
      readFileSync(own.server.logFile).subarray(logFrom).toString("utf8").split("\n").filter(Boolean);
    const parsed = () => newLines().map((l) => ({ text: l, json: parseJson(l) }));
    await waitFor(
      () => parsed().some((l) => l.json?.path === uploadPath && l.json?.client_aborted === true),
      "the client abort in the log",
    );
    const lines = parsed();
    const abort = lines.find((l) => l.json?.client_aborted === true)!.json!;
    expect(abort).toMatchObject({ level: 40, msg: "request", method: "POST", path: uploadPath, status: 499 });
    expect(lines.filter((l) => l.json?.path === uploadPath).map((l) => l.json!.status)).toEqual([499]);
    for (const l of lines) {
      expect(l.json?.level ?? 0, l.text).toBeLessThan(50);
      expect(l.text).not.toMatch(/unhandled|"status":500|upload_failed/i);
    }
    // Only the log's JSON lines: nothing printed by the framework (a stack, "Error: aborted").
    expect(lines.filter((l) => !l.json).map((l) => l.text)).toEqual([]);
  });

  it("stores the next upload normally after a client abort", async () => {
    const content = randomBytes(100_000);
    const env = multipartEnvelope({ filename: "after.bin", contentType: "application/octet-stream" });
    const res = await fetch(uploadUrl(), {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": env.contentType },
      body: Buffer.concat([env.head, content, env.tail]),
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ size_bytes: content.length, filename: "after.bin" });
    stored.push(body.file_id);
  });

  it("has exactly the successful uploads in the database and on disk", async () => {
    if (!own.target.databaseUrl) await own.server.stop(); // PGlite: one process per data folder
    expect(await fileRows(own.target)).toEqual([...stored].sort());
    expect((await storedKeys(own.target)).map((f) => path.basename(f)).sort()).toEqual([...stored].sort());
  });
});
