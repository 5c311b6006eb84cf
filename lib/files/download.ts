// GET /api/files/download?token=...: streams the file named by a signed token (lib/files/signing),
// with a single byte range when asked (resumable downloads of large files). On S3 storage a request
// for the whole file is answered 302 to a presigned URL of the object instead, after the same checks.
import { Readable } from "node:stream";
import { ApiError } from "../errors";
import { storage } from "../storage";
import { headerMediaType } from "./media-type";
import { verifyDownload } from "./signing";

/** `bytes=a-b`, `bytes=a-`, `bytes=-n`; anything else (multiple ranges, other units) is ignored. */
export function parseRange(
  header: string | null,
  size: number,
): { start: number; end: number } | "unsatisfiable" | null {
  const m = header?.trim().match(/^bytes=(\d*)-(\d*)$/);
  if (!m || (m[1] === "" && m[2] === "")) return null;
  let start: number;
  let end: number;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    if (m[2] !== "" && Number(m[2]) < start) return null; // invalid (RFC 9110: ignore the header)
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size) return "unsatisfiable";
  return { start, end };
}

function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export async function downloadFile(opts: { token: string; range: string | null }): Promise<Response> {
  return serveStoredFile(verifyDownload(opts.token), opts.range);
}

/** Streams a stored file as an attachment (a single range when asked; a presigned URL on S3): the
 *  answer of every signed download, once its token was checked (files, exports). */
export async function serveStoredFile(
  signed: { storageKey: string; filename: string; contentType: string },
  rangeHeader: string | null,
): Promise<Response> {
  const store = storage();
  let size: number;
  try {
    size = await store.size(signed.storageKey);
  } catch {
    throw new ApiError("not_found", "The file no longer exists.");
  }
  const headers = new Headers({
    // Checked again: a row stored before media types were validated must not break the header.
    "content-type": headerMediaType(signed.contentType),
    "content-disposition": contentDisposition(signed.filename),
    "accept-ranges": "bytes",
    // Uploaded bytes are the caller's: never let a browser render them as part of this origin.
    "x-content-type-options": "nosniff",
    "content-security-policy": "sandbox; default-src 'none'; frame-ancestors 'none'",
    "cache-control": "private, no-store",
  });
  const range = parseRange(rangeHeader, size);
  if (range === "unsatisfiable") {
    throw new ApiError("range_not_satisfiable", "The requested range is outside the file.", { size_bytes: size });
  }
  if (store.downloadUrl && rangeHeader === null) {
    // Object storage, whole file: the bucket serves the bytes through a presigned GET valid 15
    // minutes, with the same type, filename and caching. A request with a Range is answered here
    // (below), so that ranges mean what this route documents on every S3-compatible service
    // (suffix ranges, multiple ranges ignored) (docs/decisions.md).
    const location = await store.downloadUrl(signed.storageKey, {
      contentType: headerMediaType(signed.contentType),
      contentDisposition: headers.get("content-disposition")!,
      cacheControl: headers.get("cache-control")!,
    });
    return new Response(null, { status: 302, headers: { location, "cache-control": "private, no-store" } });
  }
  if (range) {
    headers.set("content-range", `bytes ${range.start}-${range.end}/${size}`);
    setLength(headers, range.end - range.start + 1);
    return new Response(toWeb(store.read(signed.storageKey, range)), { status: 206, headers });
  }
  setLength(headers, size);
  return new Response(toWeb(store.read(signed.storageKey)), { status: 200, headers });
}

// Next removes Content-Length from route responses; server.ts restores it from this header.
function setLength(headers: Headers, length: number) {
  headers.set("content-length", String(length));
  headers.set("x-awhs-content-length", String(length));
}

function toWeb(stream: Readable): ReadableStream<Uint8Array> {
  return Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>;
}
