// Helpers of the tus suites (tus.test.ts, tus-limits.test.ts, tus-resume.test.ts): raw tus requests,
// tus-js-client uploads, random files, database reads and waits.
import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import path from "node:path";
import { once } from "node:events";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import * as tus from "tus-js-client";
import { expect } from "vitest";
import { type ApiResponse } from "./helpers";
import { type DbTarget } from "./server";

export const FILE_ID = /^fi_[0-9a-f]{32}$/;
export const UPLOAD_PATH = /^\/api\/agents\/agt_[0-9A-Za-z]+\/upload\/tus\/upl_[0-9A-Za-z]+$/;
export const V = { "tus-resumable": "1.0.0" };
export const OCTETS = { ...V, "content-type": "application/offset+octet-stream" };
const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A CSV workflow (docs/workflows.md): one item per row, a total per item. */
export const CSV_WORKFLOW = {
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
export const FILE_URL_WORKFLOW = {
  name: "file url",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { doc: { type: "file", required: true } },
    steps: [{ id: "ref", type: "transform", expression: "inputs.doc" }],
    output: { filename: "ref.jsonl", format: "jsonl" },
  },
};
export const CSV = "id,qty,price\n1,2,3.5\n2,0,9\n3,4,0.25\n";

/** One HTTP exchange; `body` is parsed when it is JSON. */
export async function req(
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
export function tusApi(base: () => string, key: () => string) {
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
export function clientUpload(opts: {
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
export async function writeRandomFile(file: string, size: number): Promise<string> {
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
export async function query<T>(target: DbTarget, sql: string, params: unknown[] = []): Promise<T[]> {
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

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

export async function finishedRun(base: string, key: string, agentId: string, runId: string) {
  return waitFor(`run ${runId}`, async () => {
    const res = await req(base, "GET", `/api/agents/${agentId}/runs/${runId}`, { key });
    expect(res.status, res.text).toBe(200);
    return ["pending", "running"].includes(res.body.status) ? undefined : res.body;
  });
}

export const uploadIdOf = (url: string) => url.split("/").pop()!;
