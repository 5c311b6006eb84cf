// POST /api/agents/{agent_id}/upload (docs/api.md, Upload): the multipart body is parsed as it arrives and
// the one `file` part is piped into storage, so memory stays flat for multi-GiB files. The File row
// is written only after the bytes are safely in place; every failure path removes what was stored.
import { Readable } from "node:stream";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { prisma } from "../db";
import { recordUsage } from "../usage/recorder";
import { env } from "../env";
import { ApiError, ClientAbortError, isApiError } from "../errors";
import { newFileId } from "../ids";
import { log } from "../log";
import { trackUpload } from "../metrics";
import { storage } from "../storage";
import { takeRawBody } from "../streams";
import { unstorable } from "../validate";
import { mediaTypeProblem } from "./media-type";

export interface UploadedFile {
  file_id: string;
  size_bytes: number;
  content_type: string;
  filename: string;
}

const DEFAULT_CONTENT_TYPE = "application/octet-stream";
const MAX_FILENAME_LENGTH = 255;

function multipartContentType(value: string | null): string {
  const type = value?.split(";")[0]!.trim().toLowerCase();
  if (type !== "multipart/form-data" || !/;\s*boundary=/i.test(value ?? "")) {
    throw new ApiError("unsupported_media_type", "Content-Type must be multipart/form-data with a boundary.");
  }
  return value!;
}

/** Browsers and fetch (WHATWG) send `"`, CR and LF in multipart filenames as %22, %0D, %0A. */
function decodeFormFilename(name: string): string {
  return name.replace(/%(22|0D|0A)/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export function storageKeyFor(opts: { organizationId: string; agentId: string; fileId: string }) {
  return `${opts.organizationId}/${opts.agentId}/${opts.fileId}`;
}

export async function uploadFile(opts: {
  req: Request;
  organizationId: string;
  agentId: string;
  requestId?: string;
}): Promise<UploadedFile> {
  const fileId = newFileId();
  const key = storageKeyFor({ organizationId: opts.organizationId, agentId: opts.agentId, fileId });
  const received = await trackUpload("multipart", () => receiveFile({ req: opts.req, key, requestId: opts.requestId }));
  try {
    const db = await prisma();
    await db.file.create({
      data: {
        id: fileId,
        organizationId: opts.organizationId,
        agentId: opts.agentId,
        filename: received.filename,
        contentType: received.contentType,
        sizeBytes: BigInt(received.size),
        storageKey: key,
      },
    });
  } catch (err) {
    await storage().remove(key);
    throw err;
  }
  recordUsage({ organizationId: opts.organizationId, agentId: opts.agentId, uploads: 1, uploadBytes: received.size });
  return {
    file_id: fileId,
    size_bytes: received.size,
    content_type: received.contentType,
    filename: received.filename,
  };
}

/** Parses the multipart body and stores its one `file` part under `key`; on any failure nothing stays. */
async function receiveFile(opts: {
  req: Request;
  key: string;
  requestId?: string;
}): Promise<{ filename: string; contentType: string; size: number }> {
  const { req, key } = opts;
  const contentType = multipartContentType(req.headers.get("content-type"));
  // A declared length past the limit (plus room for the multipart framing) is refused unread.
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > env().UPLOAD_MAX_BYTES + 1024 * 1024) {
    throw new ApiError("payload_too_large", `The file exceeds ${env().UPLOAD_MAX_BYTES} bytes.`, {
      limit_bytes: env().UPLOAD_MAX_BYTES,
    });
  }
  if (!req.body) throw new ApiError("missing_file", "The form has no file part named file.");

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8",
      // Text fields are ignored but still buffered by the parser: keep them small.
      // busboy reports `limit` once a file *reaches* fileSize: one byte more, so that exactly
      // UPLOAD_MAX_BYTES is accepted (as tus accepts it).
      limits: { fields: 32, fieldSize: 64 * 1024, parts: 64, headerPairs: 64, fileSize: env().UPLOAD_MAX_BYTES + 1 },
    });
  } catch {
    throw new ApiError("unsupported_media_type", "Content-Type must be multipart/form-data with a boundary.");
  }

  const source =
    (takeRawBody(req.headers) as Readable | undefined) ??
    Readable.fromWeb(req.body as NodeWebReadableStream<Uint8Array>);
  // Aborting stops parsing and any write in flight: the client went away, a second file part
  // arrived, or storage failed. `failure` is the answer for the last two.
  const stop = new AbortController();
  let failure: ApiError | undefined;
  let storageError: unknown;
  let parserError: unknown;
  const fail = (err: ApiError) => {
    if (stop.signal.aborted) return;
    failure = err;
    source.unpipe(parser);
    stop.abort(err);
  };
  const onClientGone = () => {
    stop.abort(new Error("client disconnected"));
    source.destroy();
  };
  req.signal?.addEventListener("abort", onClientGone, { once: true });

  let fileParts = 0;
  let part: { filename: string; contentType: string } | undefined;
  let written: Promise<{ size: number }> | undefined;

  parser.on("file", (name, stream, info) => {
    stream.on("error", () => {}); // the parser destroys it on errors that are handled below
    fileParts++;
    if (fileParts > 1) {
      stream.resume();
      fail(
        new ApiError("invalid_request", "The form must contain exactly one file part, named file.", {
          fields: [{ field: name || "(unnamed)", message: "only one file part is allowed" }],
        }),
      );
      return;
    }
    if (name !== "file") {
      stream.resume();
      return;
    }
    // A NUL in the part's filename or type cannot be stored (PostgreSQL text): refused, not a 500.
    const problem = unstorable(info.filename ?? "") ?? unstorable(info.mimeType ?? "");
    if (problem) {
      stream.resume();
      fail(
        new ApiError("invalid_request", `Invalid file part: its filename or type ${problem.message}.`, {
          fields: [{ field: "file", message: `filename or type ${problem.message}` }],
        }),
      );
      return;
    }
    const typeProblem = info.mimeType ? mediaTypeProblem(info.mimeType) : undefined;
    if (typeProblem) {
      stream.resume();
      fail(
        new ApiError("invalid_request", `Invalid file part: its Content-Type ${typeProblem}.`, {
          fields: [{ field: "file", message: `Content-Type ${typeProblem}` }],
        }),
      );
      return;
    }
    part = {
      filename: decodeFormFilename(info.filename || "file").slice(0, MAX_FILENAME_LENGTH),
      contentType: info.mimeType || DEFAULT_CONTENT_TYPE,
    };
    stream.once("limit", () =>
      fail(
        new ApiError("payload_too_large", `The file exceeds ${env().UPLOAD_MAX_BYTES} bytes.`, {
          limit_bytes: env().UPLOAD_MAX_BYTES,
        }),
      ),
    );
    written = storage().write(key, stream, { signal: stop.signal });
    written.catch((err) => {
      // A malformed body fails the parser first (the failed write is its consequence); the
      // write's own rejection comes later, after its file is closed.
      if (stop.signal.aborted || parserError) return;
      storageError = err;
      fail(new ApiError("upload_failed", "The upload failed while storing the file; try again."));
    });
  });
  parser.on("field", () => {});

  try {
    await new Promise<void>((resolve, reject) => {
      parser.once("finish", resolve);
      // `on`, not `once`: busboy reports a malformed part header with an 'error' and keeps going,
      // and its destroy() below reports the end state as a second 'error'. With no listener left,
      // that one was thrown uncaught and could leave the request unanswered (found by the fuzz).
      parser.on("error", (err) => {
        if (!stop.signal.aborted) parserError ??= err;
        reject(err);
      });
      source.on("error", reject);
      stop.signal.addEventListener("abort", () => reject(stop.signal.reason), { once: true });
      source.pipe(parser);
    });
    const size = written ? (await written).size : 0;
    if (!part || !written) throw new ApiError("missing_file", "The form has no file part named file.");
    if (size === 0) throw new ApiError("empty_file", "The file part is empty.");
    return { ...part, size };
  } catch (err) {
    parser.destroy();
    // A write still in flight removes its own temp file; wait for it so nothing is left behind.
    await written?.catch(() => {});
    await storage().remove(key);
    if (req.signal?.aborted) throw new ClientAbortError("The client disconnected during the upload.");
    // Read (and drop) the rest of the body so that the client, still sending, gets the answer.
    await drain(source, DRAIN_LIMIT_BYTES);
    if (storageError) log.error({ request_id: opts.requestId, err: String(storageError) }, "upload: storage failed");
    if (failure) throw failure;
    if (isApiError(err)) throw err;
    // Anything else is the body itself: truncated or not valid multipart.
    throw new ApiError("invalid_request", `The multipart body could not be read: ${(err as Error).message}`);
  } finally {
    req.signal?.removeEventListener("abort", onClientGone);
  }
}

/** Past this many bytes the connection is cut rather than read to its end. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

function drain(source: Readable, limit: number): Promise<void> {
  if (source.readableEnded || source.destroyed) return Promise.resolve();
  source.unpipe();
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => resolve();
    source.on("data", (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) {
        source.destroy();
        done();
      }
    });
    source.once("end", done);
    source.once("close", done);
    source.once("error", done);
    source.resume();
  });
}
