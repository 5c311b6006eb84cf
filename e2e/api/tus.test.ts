// Resumable uploads (tus 1.0) at /api/agents/{agent_id}/upload/tus through real HTTP, driven by the
// official tus-js-client where a client would be: the protocol's answers and errors, Access Key
// auth and tenancy, a finished upload as an ordinary fi_ file (attachments, workflow file input),
// termination; on servers of our own: UPLOAD_MAX_BYTES, expiry and its cleanup, and a 200 MB upload
// resumed across a SIGKILL of the server.
import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import path from "node:path";
import { once } from "node:events";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import * as tus from "tus-js-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, ctx, ECHO_AGENT, expectError, mintKey, type ApiResponse } from "./helpers";
import { onS3, storedBytes, storedSha256, tusBytesExist, tusStateExists } from "./s3-server";
import { ownServer, type DbTarget, type OwnServer } from "./server";

const FILE_ID = /^fi_[0-9a-f]{32}$/;
const UPLOAD_PATH = /^\/api\/agents\/agt_[0-9A-Za-z]+\/upload\/tus\/upl_[0-9A-Za-z]+$/;
const V = { "tus-resumable": "1.0.0" };
const OCTETS = { ...V, "content-type": "application/offset+octet-stream" };
const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A CSV workflow (docs/workflows.md): one item per row, a total per item. */
const CSV_WORKFLOW = {
  name: "csv totals",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "file", required: true } },
    items: { from: "rows", format: "csv" },
    steps: [
      {
        id: "total",
        type: "transform",
        expression: "$merge([item, {'total': $number(item.qty) * $number(item.price)}])",
      },
    ],
    output: { filename: "totals.jsonl", format: "jsonl" },
  },
};
/** One item (the inputs): its result is the resolved file reference, with its signed URL. */
const FILE_URL_WORKFLOW = {
  name: "file url",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { doc: { type: "file", required: true } },
    steps: [{ id: "ref", type: "transform", expression: "inputs.doc" }],
    output: { filename: "ref.jsonl", format: "jsonl" },
  },
};
const CSV = "id,qty,price\n1,2,3.5\n2,0,9\n3,4,0.25\n";

/** One HTTP exchange; `body` is parsed when it is JSON. */
async function req(
  base: string,
  method: string,
  p: string,
  opts: { key?: string; headers?: Record<string, string>; body?: BodyInit | Buffer; json?: unknown } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers["content-type"] = "application/json";
  }
  const init: RequestInit & { duplex?: "half" } = { method, headers, body: body as BodyInit | undefined };
  if (body instanceof ReadableStream) init.duplex = "half";
  const res = await fetch(`${base}${p}`, init);
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** The tus calls of one server, for one Access Key. */
function tusApi(base: () => string, key: () => string) {
  const endpoint = (agentId: string) => `/api/agents/${agentId}/upload/tus`;
  return {
    endpoint,
    /** POST (creation; with `body`, creation-with-upload). Returns the upload's path. */
    async create(
      agentId: string,
      length: number,
      opts: { filename?: string; filetype?: string; body?: Buffer; k?: string } = {},
    ) {
      const meta = [
        ...(opts.filename ? [`filename ${b64(opts.filename)}`] : []),
        ...(opts.filetype ? [`filetype ${b64(opts.filetype)}`] : []),
      ].join(",");
      const res = await req(base(), "POST", endpoint(agentId), {
        key: opts.k ?? key(),
        headers: {
          ...(opts.body ? OCTETS : V),
          "upload-length": String(length),
          ...(meta ? { "upload-metadata": meta } : {}),
        },
        body: opts.body,
      });
      return { res, url: res.headers.get("location") ?? "" };
    },
    patch: (
      url: string,
      offset: number,
      bytes: Buffer | ReadableStream,
      k = key(),
      headers: Record<string, string> = {},
    ) =>
      req(base(), "PATCH", url, {
        key: k,
        headers: { ...OCTETS, "upload-offset": String(offset), ...headers },
        body: bytes,
      }),
    head: (url: string, k = key(), headers: Record<string, string> = V) =>
      req(base(), "HEAD", url, { key: k, headers }),
    get: (url: string, k = key()) => req(base(), "GET", url, { key: k }),
    del: (url: string, k = key(), headers: Record<string, string> = V) =>
      req(base(), "DELETE", url, { key: k, headers }),
    async offset(url: string) {
      const res = await req(base(), "HEAD", url, { key: key(), headers: V });
      expect(res.status, `HEAD ${url}`).toBe(200);
      return Number(res.headers.get("upload-offset"));
    },
  };
}

/** tus-js-client (Node) against `base`: resolves with the upload URL and the Upload-File-Id of the last response. */
function clientUpload(opts: {
  base: string;
  key: string;
  agentId?: string;
  uploadUrl?: string;
  source: Buffer | string;
  chunkSize?: number;
  metadata?: Record<string, string>;
  retryDelays?: number[] | null;
  onChunkComplete?: (chunkSize: number, accepted: number, total: number) => void;
  onAfterResponse?: (req: tus.HttpRequest, res: tus.HttpResponse) => void;
}) {
  let upload!: tus.Upload;
  const done = new Promise<{ url: string; fileId: string | undefined }>((resolve, reject) => {
    // Node mode: a Buffer, or an fs.ReadStream (read again from any offset when resuming).
    const file = typeof opts.source === "string" ? (createReadStream(opts.source) as unknown as Buffer) : opts.source;
    upload = new tus.Upload(file, {
      endpoint: opts.agentId ? `${opts.base}/api/agents/${opts.agentId}/upload/tus` : null,
      uploadUrl: opts.uploadUrl ?? null,
      headers: { authorization: `Bearer ${opts.key}` },
      chunkSize: opts.chunkSize ?? Number.POSITIVE_INFINITY,
      metadata: opts.metadata ?? {},
      retryDelays: opts.retryDelays === undefined ? [0, 1000, 3000, 5000] : opts.retryDelays,
      storeFingerprintForResuming: false,
      onChunkComplete: opts.onChunkComplete ?? null,
      onAfterResponse: opts.onAfterResponse,
      onSuccess: ({ lastResponse }) => resolve({ url: upload.url!, fileId: lastResponse.getHeader("Upload-File-Id") }),
      onError: reject,
    });
    upload.start();
  });
  return { upload, done };
}

/** Random bytes written to `file`; returns their SHA-256. */
async function writeRandomFile(file: string, size: number): Promise<string> {
  const hash = createHash("sha256");
  const out = createWriteStream(file);
  for (let written = 0; written < size;) {
    const block = randomBytes(Math.min(4 * 1024 * 1024, size - written));
    hash.update(block);
    if (!out.write(block)) await once(out, "drain");
    written += block.length;
  }
  out.end();
  await once(out, "finish");
  return hash.digest("hex");
}

/** A query on the test's database; on the embedded one only while its server is stopped. */
async function query<T>(target: DbTarget, sql: string, params: unknown[] = []): Promise<T[]> {
  if (target.databaseUrl) {
    const c = new pg.Client({ connectionString: target.databaseUrl });
    await c.connect();
    try {
      return (await c.query(sql, params)).rows as T[];
    } finally {
      await c.end();
    }
  }
  const db = new PGlite(path.join(target.dataDir, "pglite"));
  try {
    return (await db.query<T>(sql, params)).rows;
  } finally {
    await db.close();
  }
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

async function finishedRun(base: string, key: string, agentId: string, runId: string) {
  return waitFor(`run ${runId}`, async () => {
    const res = await req(base, "GET", `/api/agents/${agentId}/runs/${runId}`, { key });
    expect(res.status, res.text).toBe(200);
    return ["pending", "running"].includes(res.body.status) ? undefined : res.body;
  });
}

const uploadIdOf = (url: string) => url.split("/").pop()!;

// --- The shared server -------------------------------------------------------------------------

describe("tus: protocol, auth and the finished upload as a file (shared server)", () => {
  let key: string;
  let noInvokeKey: string;
  let otherOrgKey: string;
  let agentId: string;
  let siblingAgent: string;
  let workflowAgent: string;
  let otherOrgAgent: string;
  const base = () => ctx().baseUrl;
  const api = tusApi(base, () => key);

  beforeAll(async () => {
    const { orgA, orgB } = ctx();
    key = (await mintKey(orgA)).key;
    noInvokeKey = (await mintKey(orgA, [])).key;
    otherOrgKey = (await mintKey(orgB)).key;
    agentId = (await createAgent(orgA, ECHO_AGENT)).agent_id;
    siblingAgent = (await createAgent(orgA, ECHO_AGENT)).agent_id;
    workflowAgent = (await createAgent(orgA, CSV_WORKFLOW)).agent_id;
    otherOrgAgent = (await createAgent(orgB, ECHO_AGENT)).agent_id;
  });

  it("OPTIONS answers Tus-Version, Tus-Extension and Tus-Max-Size", async () => {
    const res = await req(base(), "OPTIONS", api.endpoint(agentId));
    expect(res.status).toBe(204);
    expect(res.headers.get("tus-version")).toBe("1.0.0");
    expect(res.headers.get("tus-extension")!.split(",").sort()).toEqual(
      ["creation", "creation-with-upload", "expiration", "termination"].sort(),
    );
    expect(res.headers.get("tus-max-size")).toBe(String(50 * 1024 ** 3)); // the default UPLOAD_MAX_BYTES
  });

  describe("tus-js-client, and the finished upload as an fi_ file", () => {
    const content = Buffer.from(CSV + Array.from({ length: 297 }, (_, i) => `${i + 4},1,1\n`).join(""));
    let url: string;
    let fileId: string;

    beforeAll(async () => {
      const up = clientUpload({
        base: base(),
        key,
        agentId: workflowAgent,
        source: content,
        chunkSize: 1024, // several PATCHes
        metadata: { filename: "orders.csv", filetype: "text/csv" },
      });
      ({ url, fileId } = (await up.done) as { url: string; fileId: string });
      url = new URL(url).pathname;
    });

    it("uploads in chunks and names the file in the last PATCH's Upload-File-Id", async () => {
      expect(url).toMatch(UPLOAD_PATH);
      expect(fileId).toMatch(FILE_ID);
      expect((await storedBytes(ctx().target, `tus/${uploadIdOf(url)}`))?.equals(content)).toBe(true);
    });

    it("GET answers the upload's file object, the same fi_ id every time; HEAD carries it too", async () => {
      const first = await api.get(url);
      expect(first.status, first.text).toBe(200);
      expect(first.body).toEqual({
        file_id: fileId,
        size_bytes: content.length,
        content_type: "text/csv",
        filename: "orders.csv",
      });
      expect((await api.get(url)).body.file_id).toBe(fileId);
      const head = await api.head(url);
      expect(head.status).toBe(200);
      expect(head.headers.get("upload-file-id")).toBe(fileId);
      expect(head.headers.get("upload-offset")).toBe(String(content.length));
      expect(head.headers.get("upload-length")).toBe(String(content.length));
    });

    it("a repeated last PATCH (a client that missed the answer) gives the same fi_ id", async () => {
      const again = await api.patch(url, content.length, Buffer.alloc(0));
      expect(again.status, again.text).toBe(204);
      expect(again.headers.get("upload-file-id")).toBe(fileId);
    });

    it("works as a workflow file input (CSV items)", async () => {
      const res = await req(base(), "POST", `/api/agents/webhook/${workflowAgent}`, {
        key,
        json: { rows: { file_id: fileId } },
      });
      expect(res.status, res.text).toBe(202);
      const run = await finishedRun(base(), key, workflowAgent, res.body.run_id);
      expect(run.status, JSON.stringify(run.error)).toBe("completed");
      expect(run.item_counts).toMatchObject({ total: 300, completed: 300, failed: 0 });
      const out = await fetch(run.output_files[0].url);
      expect(out.status).toBe(200);
      const lines = (await out.text())
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(lines.slice(0, 3).map((l) => l.result.total)).toEqual([7, 0, 1]);
    });

    it("works as a conversational attachment (the echo reply names the file)", async () => {
      const up = clientUpload({
        base: base(),
        key,
        agentId,
        source: Buffer.from("hello, resumable world\n"),
        metadata: { filename: "note.txt", filetype: "text/plain" },
      });
      const { fileId: noteId } = await up.done;
      const res = await req(base(), "POST", `/api/agents/webhook/${agentId}`, {
        key,
        json: { message: "see file", attachments: [{ file_id: noteId }] },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.response).toBe("Echo: see file [attachments: note.txt]");
    });

    it("is refused (400 file_not_found) for another agent of the organization and for another organization", async () => {
      const ref = { message: "x", attachments: [{ file_id: fileId }] };
      expectError(
        await req(base(), "POST", `/api/agents/webhook/${siblingAgent}`, { key, json: ref }),
        400,
        "file_not_found",
      );
      expectError(
        await req(base(), "POST", `/api/agents/webhook/${otherOrgAgent}`, { key: otherOrgKey, json: ref }),
        400,
        "file_not_found",
      );
    });

    it("refuses DELETE of a finished upload, and its file keeps working", async () => {
      const res = await api.del(url);
      expect(res.status).toBe(400);
      expect(await tusBytesExist(ctx().target, uploadIdOf(url))).toBe(true);
      expect((await api.get(url)).body.file_id).toBe(fileId);
      const run = await req(base(), "POST", `/api/agents/webhook/${workflowAgent}`, {
        key,
        json: { rows: { file_id: fileId } },
      });
      expect(run.status).toBe(202);
      expect((await finishedRun(base(), key, workflowAgent, run.body.run_id)).status).toBe("completed");
    });
  });

  describe("protocol errors", () => {
    let url: string;

    beforeAll(async () => {
      const made = await api.create(agentId, 100, { filename: "p.bin" });
      expect(made.res.status, made.res.text).toBe(201);
      url = made.url;
      expect((await api.patch(url, 0, randomBytes(40))).status).toBe(204);
    });

    it("answers 201 with a Location for the agent and Upload-Expires; HEAD reports the offset", async () => {
      expect(url).toMatch(UPLOAD_PATH);
      expect(url.startsWith(`/api/agents/${agentId}/`)).toBe(true);
      const head = await api.head(url);
      expect(head.status).toBe(200);
      expect(head.headers.get("upload-offset")).toBe("40");
      expect(head.headers.get("upload-length")).toBe("100");
      expect(head.headers.get("cache-control")).toBe("no-store");
      expect(head.headers.get("upload-file-id")).toBeNull();
    });

    it("409 for a PATCH at the wrong offset, and the upload is unchanged", async () => {
      for (const offset of [0, 39, 41, 100]) {
        const res = await api.patch(url, offset, randomBytes(10));
        expect(res.status, `offset ${offset}`).toBe(409);
      }
      expect(await api.offset(url)).toBe(40);
    });

    it("412 without Tus-Resumable, or with a version the server does not speak (naming Tus-Version)", async () => {
      const versions: Record<string, string>[] = [{}, { "tus-resumable": "0.2.2" }, { "tus-resumable": "2.0.0" }];
      for (const headers of versions) {
        for (const res of [
          await req(base(), "POST", api.endpoint(agentId), { key, headers: { ...headers, "upload-length": "10" } }),
          await req(base(), "HEAD", url, { key, headers }),
          await req(base(), "PATCH", url, {
            key,
            headers: { ...headers, "content-type": "application/offset+octet-stream", "upload-offset": "40" },
            body: randomBytes(5),
          }),
          await req(base(), "DELETE", url, { key, headers }),
        ]) {
          expect(res.status, JSON.stringify(headers)).toBe(412);
          expect(res.headers.get("tus-version")).toBe("1.0.0");
        }
      }
      expect(await api.offset(url)).toBe(40);
    });

    it("409 upload_incomplete from GET while bytes are missing", async () => {
      const res = await api.get(url);
      expectError(res, 409, "upload_incomplete");
      expect(res.body.error.details).toEqual({ offset: 40, length: 100 });
    });

    it("413 for a PATCH past the upload's length; the upload is unchanged", async () => {
      expect((await api.patch(url, 40, randomBytes(61))).status).toBe(413);
      expect(await api.offset(url)).toBe(40);
    });

    it("refuses creation without Upload-Length (400; deferred lengths: 501) and with 0 (400 empty_file)", async () => {
      const noLength = await req(base(), "POST", api.endpoint(agentId), { key, headers: V });
      expect(noLength.status).toBe(400);
      const deferred = await req(base(), "POST", api.endpoint(agentId), {
        key,
        headers: { ...V, "upload-defer-length": "1" },
      });
      expect(deferred.status).toBe(501); // creation-defer-length is not offered
      const empty = await api.create(agentId, 0);
      expectError(empty.res, 400, "empty_file");
    });

    it("refuses a PATCH without the tus Content-Type (415, with one or another), as tus 1.0 says; unchanged", async () => {
      const patch = (headers: Record<string, string>) =>
        req(base(), "PATCH", url, { key, headers: { ...V, "upload-offset": "40", ...headers }, body: randomBytes(5) });
      expectError(await patch({}), 415, "unsupported_media_type");
      expectError(await patch({ "content-type": "application/octet-stream" }), 415, "unsupported_media_type");
      expect(await api.offset(url)).toBe(40);
    });

    it("a query string on the upload URL does not change which upload is addressed", async () => {
      const other = await api.create(siblingAgent, 50);
      // The sibling's upload, addressed through this upload's URL plus a query naming the sibling's id.
      const res = await api.patch(`${url}?via=/${uploadIdOf(other.url)}`, 40, randomBytes(10));
      expect(res.status, res.text).toBe(204);
      expect(res.headers.get("upload-offset")).toBe("50");
      expect(await api.offset(url)).toBe(50);
      expect(await api.offset(other.url)).toBe(0);
    });

    it("404 not_found for a path below an upload", async () => {
      expectError(await req(base(), "GET", `${url}/x`, { key }), 404, "not_found");
      expect((await req(base(), "PATCH", `${url}/x`, { key, headers: OCTETS, body: "x" })).status).toBe(404);
    });

    it("405 with the Allow of the URL: the collection creates, an upload's URL is read, continued and deleted", async () => {
      const atUpload = "DELETE, GET, HEAD, OPTIONS, PATCH";
      const atCollection = "OPTIONS, POST";
      const cases: [string, string, string][] = [
        ["POST", url, atUpload], // answered by the route (412 or 404 before)
        ["PUT", url, atUpload], // answered by the server in front of Next (its Allow listed POST before)
        ["GET", api.endpoint(workflowAgent), atCollection],
        ["HEAD", api.endpoint(workflowAgent), atCollection],
        ["PATCH", api.endpoint(workflowAgent), atCollection],
        ["DELETE", api.endpoint(workflowAgent), atCollection],
        ["PUT", api.endpoint(workflowAgent), atCollection],
      ];
      for (const [method, at, allow] of cases) {
        const headers = method === "PATCH" ? { ...OCTETS, "upload-offset": "0" } : { ...V, "upload-length": "5" };
        const res = await req(base(), method, at, { key, headers, body: method === "PATCH" ? "x" : undefined });
        expect([method, at, res.status, res.headers.get("allow")]).toEqual([method, at, 405, allow]);
        if (method !== "HEAD") expect(res.body).toMatchObject({ error: { code: "method_not_allowed" } });
      }
      expect(await api.offset(url)).toBeGreaterThan(0); // nothing of the upload changed
    });
  });

  describe("auth and tenancy", () => {
    let url: string;

    beforeAll(async () => {
      const made = await api.create(agentId, 100, { filename: "mine.bin" });
      url = made.url;
      expect((await api.patch(url, 0, randomBytes(30))).status).toBe(204);
    });

    const byMethod = (k: string | undefined, target: string) =>
      [
        ["HEAD", () => req(base(), "HEAD", target, { key: k, headers: V })],
        [
          "PATCH",
          () =>
            req(base(), "PATCH", target, {
              key: k,
              headers: { ...OCTETS, "upload-offset": "30" },
              body: randomBytes(10),
            }),
        ],
        ["GET", () => req(base(), "GET", target, { key: k })],
        ["DELETE", () => req(base(), "DELETE", target, { key: k, headers: V })],
      ] as const;

    it("401 without a key (every method, creation included)", async () => {
      expectError(
        await req(base(), "POST", api.endpoint(agentId), { headers: { ...V, "upload-length": "5" } }),
        401,
        "unauthorized",
      );
      for (const [method, send] of byMethod(undefined, url)) {
        const res = await send();
        if (method === "HEAD") expect(res.status).toBe(401);
        else expectError(res, 401, "unauthorized");
      }
      expectError(
        await req(base(), "PATCH", url, {
          key: `ak_${"x".repeat(43)}`,
          headers: { ...OCTETS, "upload-offset": "30" },
          body: randomBytes(5),
        }),
        401,
        "unauthorized",
      );
      expect(await api.offset(url)).toBe(30);
    });

    it("403 forbidden for a key without agents:invoke", async () => {
      expectError((await api.create(agentId, 5, { k: noInvokeKey })).res, 403, "forbidden");
      expectError(await api.get(url, noInvokeKey), 403, "forbidden");
    });

    it("404 agent_not_found for another organization's key on the upload URL (HEAD, PATCH, GET, DELETE); unchanged", async () => {
      expectError((await api.create(agentId, 5, { k: otherOrgKey })).res, 404, "agent_not_found");
      for (const [method, send] of byMethod(otherOrgKey, url)) {
        const res = await send();
        if (method === "HEAD") expect(res.status).toBe(404);
        else expectError(res, 404, "agent_not_found");
      }
      expect(await api.offset(url)).toBe(30);
    });

    it("404 upload_not_found for the upload under another organization's agent, or another agent of ours", async () => {
      for (const [k, agent] of [
        [otherOrgKey, otherOrgAgent],
        [key, siblingAgent],
      ] as const) {
        const target = `/api/agents/${agent}/upload/tus/${uploadIdOf(url)}`;
        for (const [method, send] of byMethod(k, target)) {
          const res = await send();
          if (method === "HEAD") expect(res.status).toBe(404);
          else expectError(res, 404, "upload_not_found");
        }
      }
      expect(await api.offset(url)).toBe(30);
      expect(await tusBytesExist(ctx().target, uploadIdOf(url))).toBe(true);
    });

    it("404 upload_not_found for an id that is not an upload id", async () => {
      for (const id of ["upl_doesnotexist", "nope", "upl_a.b", "upl_a%2Fb", `upl_${"x".repeat(65)}`]) {
        expectError(await api.get(`/api/agents/${agentId}/upload/tus/${id}`), 404, "upload_not_found");
      }
    });
  });

  describe("creation-with-upload and termination", () => {
    it("POST with the whole body finishes the upload at once (201, Upload-Offset, Upload-File-Id)", async () => {
      const bytes = randomBytes(5000);
      const made = await api.create(agentId, bytes.length, { filename: "whole.bin", body: bytes });
      expect(made.res.status, made.res.text).toBe(201);
      expect(made.res.headers.get("upload-offset")).toBe("5000");
      const fileId = made.res.headers.get("upload-file-id");
      expect(fileId).toMatch(FILE_ID);
      expect((await api.get(made.url)).body).toEqual({
        file_id: fileId,
        size_bytes: 5000,
        content_type: "application/octet-stream",
        filename: "whole.bin",
      });
    });

    it("POST with part of the body, then PATCH the rest (tus-js-client uploadDataDuringCreation too)", async () => {
      const bytes = randomBytes(3000);
      const made = await api.create(agentId, bytes.length, { body: bytes.subarray(0, 1000) });
      expect(made.res.status).toBe(201);
      expect(made.res.headers.get("upload-offset")).toBe("1000");
      expect(made.res.headers.get("upload-file-id")).toBeNull();
      const rest = await api.patch(made.url, 1000, bytes.subarray(1000));
      expect(rest.status).toBe(204);
      expect(rest.headers.get("upload-file-id")).toMatch(FILE_ID);
      expect((await storedBytes(ctx().target, `tus/${uploadIdOf(made.url)}`))?.equals(bytes)).toBe(true);

      let upload!: tus.Upload;
      const done = new Promise<string | undefined>((resolve, reject) => {
        upload = new tus.Upload(randomBytes(2500), {
          endpoint: `${base()}${api.endpoint(agentId)}`,
          headers: { authorization: `Bearer ${key}` },
          uploadDataDuringCreation: true,
          chunkSize: 1000,
          retryDelays: null,
          onSuccess: ({ lastResponse }) => resolve(lastResponse.getHeader("Upload-File-Id")),
          onError: reject,
        });
        upload.start();
      });
      expect(await done).toMatch(FILE_ID);
    });

    it("DELETE of an unfinished upload removes it: its bytes, and then HEAD, GET and PATCH answer 404", async () => {
      const made = await api.create(agentId, 100);
      expect((await api.patch(made.url, 0, randomBytes(10))).status).toBe(204);
      const id = uploadIdOf(made.url);
      expect(await tusBytesExist(ctx().target, id)).toBe(true);
      const res = await api.del(made.url);
      expect(res.status).toBe(204);
      expect(await tusBytesExist(ctx().target, id)).toBe(false);
      expect(await tusStateExists(ctx().target, id)).toBe(false);
      expect([404, 410]).toContain((await api.head(made.url)).status);
      expectError(await api.get(made.url), 404, "upload_not_found");
      expect([404, 410]).toContain((await api.patch(made.url, 10, randomBytes(5))).status);
      expect([404, 410]).toContain((await api.del(made.url)).status);
    });

    it("tus-js-client's abort(true) terminates an upload", async () => {
      let terminated: Promise<void> | undefined;
      const up = clientUpload({
        base: base(),
        key,
        agentId,
        source: randomBytes(64 * 1024),
        chunkSize: 16 * 1024,
        // Between two PATCHes: the client sends no further chunk once aborted.
        onChunkComplete: () => (terminated ??= up.upload.abort(true)),
      });
      up.done.catch(() => undefined);
      await waitFor("a first chunk", async () => terminated !== undefined);
      await terminated;
      expect([404, 410]).toContain((await api.head(new URL(up.upload.url!).pathname)).status);
    });
  });
});

// --- A server of our own: UPLOAD_MAX_BYTES = 1 MiB; then expiry and its cleanup ------------------

describe("tus: limits and expiry (own server)", () => {
  const MAX = 1024 * 1024;
  let own: OwnServer;
  let key: string;
  let agentId: string;
  const api = tusApi(
    () => own.server.baseUrl,
    () => key,
  );

  beforeAll(async () => {
    own = await ownServer("tus-small", { UPLOAD_MAX_BYTES: String(MAX), UPLOAD_CLEANUP_INTERVAL_MS: "500" });
    key = await own.mintKey();
    agentId = await own.createAgent(ECHO_AGENT);
  });

  afterAll(() => own?.dispose());

  describe("UPLOAD_MAX_BYTES", () => {
    it("is announced as Tus-Max-Size", async () => {
      const res = await req(own.server.baseUrl, "OPTIONS", api.endpoint(agentId));
      expect(res.headers.get("tus-max-size")).toBe(String(MAX));
    });

    it("413 for an Upload-Length over it; exactly the limit is accepted", async () => {
      expect((await api.create(agentId, MAX + 1)).res.status).toBe(413);
      expect((await api.create(agentId, MAX)).res.status).toBe(201);
    });

    it("413 for PATCHing past it (with and without Content-Length); the upload keeps its bytes", async () => {
      const { url } = await api.create(agentId, MAX);
      expect((await api.patch(url, 0, randomBytes(MAX - 10))).status).toBe(204);
      expect((await api.patch(url, MAX - 10, randomBytes(11))).status).toBe(413);
      expect(await api.offset(url)).toBe(MAX - 10);
      const chunked = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(randomBytes(64 * 1024));
          c.close();
        },
      });
      expect((await api.patch(url, MAX - 10, chunked)).status).toBe(413);
      expect(await api.offset(url)).toBe(MAX - 10);
      const last = await api.patch(url, MAX - 10, randomBytes(10));
      expect(last.status).toBe(204);
      expect(last.headers.get("upload-file-id")).toMatch(FILE_ID);
    });

    it("413 payload_too_large for a multipart upload over it (declared or streamed); under it works", async () => {
      const send = (size: number) => {
        const form = new FormData();
        form.append("file", new Blob([randomBytes(size)]), "m.bin");
        return req(own.server.baseUrl, "POST", `/api/agents/${agentId}/upload`, { key, body: form });
      };
      const huge = await send(3 * MAX); // Content-Length far over: refused unread
      expectError(huge, 413, "payload_too_large");
      expect(huge.body.error.details).toEqual({ limit_bytes: MAX });
      expectError(await send(MAX + 1), 413, "payload_too_large"); // caught while streaming
      const ok = await send(MAX);
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.size_bytes).toBe(MAX);
    });
  });

  describe("expiry: unfinished uploads are deleted by the worker, finished ones stay", () => {
    let finished: { url: string; fileId: string };
    let unfinished: string;
    const gone = new Set<string>();

    /** Gone: HEAD 404/410, GET 404 upload_not_found (no record), no bytes and no state on disk. */
    const isGone = async (url: string) => {
      const id = uploadIdOf(url);
      const head = await api.head(url);
      const get = await api.get(url);
      return (
        [404, 410].includes(head.status) &&
        get.status === 404 &&
        get.body?.error?.code === "upload_not_found" &&
        !(await tusBytesExist(own.target, id)) &&
        !(await tusStateExists(own.target, id))
      );
    };

    const expectUsable = async (f: { url: string; fileId: string }, size: number) => {
      const head = await api.head(f.url);
      expect(head.status).toBe(200);
      expect(head.headers.get("upload-file-id")).toBe(f.fileId);
      expect((await api.get(f.url)).body).toMatchObject({ file_id: f.fileId, size_bytes: size });
      expect(await tusBytesExist(own.target, uploadIdOf(f.url))).toBe(true);
      const res = await req(own.server.baseUrl, "POST", `/api/agents/webhook/${agentId}`, {
        key,
        json: { message: "still there?", attachments: [{ file_id: f.fileId }] },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.response).toMatch(/\[attachments: /);
    };

    beforeAll(async () => {
      // Made under the default expiry (24 h); the restart below makes them old at once.
      const done = await clientUpload({
        base: own.server.baseUrl,
        key,
        agentId,
        source: randomBytes(20_000),
        chunkSize: 5000,
        metadata: { filename: "kept.bin" },
      }).done;
      finished = { url: new URL(done.url).pathname, fileId: done.fileId! };
      const made = await api.create(agentId, 5000, { filename: "dropped.bin" });
      unfinished = made.url;
      expect((await api.patch(unfinished, 0, randomBytes(1000))).status).toBe(204);
      await own.restart("SIGTERM", { UPLOAD_EXPIRY_HOURS: "0.0003", UPLOAD_CLEANUP_INTERVAL_MS: "500" });
    });

    it("deletes an expired unfinished upload: bytes, state and record", async () => {
      await waitFor("the expired upload to be deleted", () => isGone(unfinished));
      gone.add(uploadIdOf(unfinished));
      if (own.target.databaseUrl) {
        expect(await query(own.target, "SELECT id FROM uploads WHERE id = $1", [uploadIdOf(unfinished)])).toEqual([]);
      }
    });

    it("keeps a finished upload usable past its expiry (HEAD, GET, its bytes, as an attachment)", async () => {
      await expectUsable(finished, 20_000);
    });

    it("under the short expiry: a new unfinished upload goes, one finished at once stays", async () => {
      const whole = await api.create(agentId, 2000, { filename: "whole.bin", body: randomBytes(2000) });
      expect(whole.res.status).toBe(201);
      const quick = { url: whole.url, fileId: whole.res.headers.get("upload-file-id")! };
      expect(quick.fileId).toMatch(FILE_ID);
      const partial = await api.create(agentId, 2000, { body: randomBytes(500) });
      expect(partial.res.status).toBe(201);
      // The partial upload was made after the whole one: once it is gone, a sweep ran after both expired.
      await waitFor("the new unfinished upload to be deleted", () => isGone(partial.url));
      gone.add(uploadIdOf(partial.url));
      await expectUsable(quick, 2000);
    });

    it("the database keeps the finished uploads' records and files, and none of the expired ones", async () => {
      if (!own.target.databaseUrl) await own.server.stop(); // PGlite: one process per data folder
      const uploads = await query<{ id: string; file_id: string | null }>(
        own.target,
        "SELECT id, file_id FROM uploads",
      );
      expect(uploads.filter((u) => gone.has(u.id))).toEqual([]);
      expect(uploads.find((u) => u.id === uploadIdOf(finished.url))?.file_id).toBe(finished.fileId);
      const files = await query<{ id: string }>(own.target, "SELECT id FROM files WHERE storage_key = $1", [
        `tus/${uploadIdOf(finished.url)}`,
      ]);
      expect(files.map((f) => f.id)).toEqual([finished.fileId]);
    });
  });
});

// --- 200 MB across a SIGKILL ---------------------------------------------------------------------

describe("tus: a 200 MB upload resumed across a SIGKILL of the server (own server)", () => {
  // 64 MB in the S3 pass (CI time: s3rver copies every part on disk twice): still 13 PATCHes of one
  // 5 MiB part each, with the kill in the middle.
  const SIZE = (onS3() ? 64 : 200) * 1024 * 1024;
  const CHUNK = 5 * 1024 * 1024;
  let own: OwnServer;
  let key: string;
  let agentId: string;
  const api = tusApi(
    () => own.server.baseUrl,
    () => key,
  );

  beforeAll(async () => {
    own = await ownServer("tus-kill");
    key = await own.mintKey();
    agentId = await own.createAgent(FILE_URL_WORKFLOW);
  });

  afterAll(() => own?.dispose());

  it("resumes from the server's offset after the restart, stores the exact bytes and makes one file", async () => {
    const source = path.join(own.tmp, "big.bin");
    const sha = await writeRandomFile(source, SIZE);

    // 1. Upload until about half is accepted, then SIGKILL the server (a PATCH is usually in flight).
    let acceptedAtKill = 0;
    let restarted: Promise<void> | undefined;
    const first = clientUpload({
      base: own.server.baseUrl,
      key,
      agentId,
      source,
      chunkSize: CHUNK,
      metadata: { filename: "big.bin", filetype: "application/octet-stream" },
      retryDelays: null, // fail at once instead of retrying against a dead server
      onChunkComplete: (_size, accepted, total) => {
        if (!restarted && accepted >= total / 2) {
          acceptedAtKill = accepted;
          restarted = own.restart("SIGKILL");
        }
      },
    });
    const outcome = await first.done.then(
      () => "finished",
      () => "failed",
    );
    expect(outcome).toBe("failed");
    await restarted;
    const url = first.upload.url!;
    expect(new URL(url).pathname).toMatch(UPLOAD_PATH);

    // 2. The server kept what it had accepted.
    const offset = await api.offset(new URL(url).pathname);
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeGreaterThanOrEqual(acceptedAtKill);
    expect(offset).toBeLessThan(SIZE);

    // 3. A new client on the same URL resumes from there (no endpoint: it cannot start over).
    let resumedFrom: number | undefined;
    let firstPatchOffset: number | undefined;
    const second = clientUpload({
      base: own.server.baseUrl,
      key,
      uploadUrl: url,
      source,
      chunkSize: CHUNK,
      onAfterResponse: (rq, rs) => {
        if (rq.getMethod() === "HEAD" && resumedFrom === undefined) resumedFrom = Number(rs.getHeader("Upload-Offset"));
        if (rq.getMethod() === "PATCH" && firstPatchOffset === undefined)
          firstPatchOffset = Number(rq.getHeader("Upload-Offset"));
      },
    });
    const { fileId } = await second.done;
    expect(resumedFrom).toBe(offset);
    expect(firstPatchOffset).toBe(offset);
    expect(fileId).toMatch(FILE_ID);

    // 4. The bytes, and the file: the same fi_ id on every GET and HEAD.
    const uploadPath = new URL(url).pathname;
    const uploadId = uploadIdOf(uploadPath);
    expect(await storedSha256(own.target, `tus/${uploadId}`)).toBe(sha);
    const a = await api.get(uploadPath);
    const b = await api.get(uploadPath);
    expect(a.body).toEqual({
      file_id: fileId,
      size_bytes: SIZE,
      content_type: "application/octet-stream",
      filename: "big.bin",
    });
    expect(b.body.file_id).toBe(fileId);
    expect((await api.head(uploadPath)).headers.get("upload-file-id")).toBe(fileId);

    // 5. Through a trigger: the workflow resolves the reference into a signed URL serving the same bytes.
    const run = await req(own.server.baseUrl, "POST", `/api/agents/webhook/${agentId}`, {
      key,
      json: { doc: { file_id: fileId } },
    });
    expect(run.status, run.text).toBe(202);
    const done = await finishedRun(own.server.baseUrl, key, agentId, run.body.run_id);
    expect(done.status).toBe("completed");
    const line = JSON.parse((await (await fetch(done.output_files[0].url)).text()).trim());
    expect(line.result).toMatchObject({ file_id: fileId, filename: "big.bin", size_bytes: SIZE });
    const download = await fetch(line.result.url);
    expect(download.status).toBe(200);
    const hash = createHash("sha256");
    const reader = download.body!.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) hash.update(r.value);
    expect(hash.digest("hex")).toBe(sha);

    // 6. Exactly one file record for the upload.
    if (!own.target.databaseUrl) await own.server.stop(); // PGlite: one process per data folder
    const files = await query<{ id: string }>(own.target, "SELECT id FROM files WHERE storage_key = $1", [
      `tus/${uploadId}`,
    ]);
    expect(files.map((f) => f.id)).toEqual([fileId]);
    const uploads = await query<{ file_id: string }>(own.target, "SELECT file_id FROM uploads WHERE id = $1", [
      uploadId,
    ]);
    expect(uploads).toEqual([{ file_id: fileId }]);
  });
});
