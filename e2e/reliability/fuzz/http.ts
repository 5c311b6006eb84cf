// Raw HTTP for the fuzz suites: a request sent as bytes with a client time limit (a hang is a
// failure), its answer decoded.
import http from "node:http";
import zlib from "node:zlib";

/** A request that gets no answer within this is a hang, and a failure. */
export const HANG_MS = 30_000;
export const MIB = 1024 * 1024;

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  ms: number;
}

export interface Sendable {
  method: string;
  /** Request target as sent on the request line (path and query, already encoded or raw). */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send the body with chunked transfer coding (no Content-Length). */
  chunked?: boolean;
}

/** The body as sent, decompressed (a fuzzed Accept-Encoding may have asked for gzip or br). */
function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (!body.length) return body;
  if (encoding === "gzip") return zlib.gunzipSync(body);
  if (encoding === "br") return zlib.brotliDecompressSync(body);
  if (encoding === "deflate") return zlib.inflateSync(body);
  return body;
}

/**
 * One request over node:http (raw paths and header bytes, no normalisation) on a connection of its
 * own, so that no case inherits a connection an earlier one left behind; a hang rejects.
 */
export function send(base: string, r: Sendable): Promise<Answer> {
  const started = performance.now();
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      req.destroy();
      reject(new Error(`hang: no complete answer within ${HANG_MS} ms`));
    }, HANG_MS);
    const headers: Record<string, string> = { ...r.headers };
    if (r.body && !r.chunked) headers["content-length"] = String(r.body.length);
    const req = http.request(
      { host: url.hostname, port: url.port, method: r.method, path: r.target, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", (e) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(e);
        });
        res.on("end", () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            text: decode(Buffer.concat(chunks), res.headers["content-encoding"]).toString("utf8"),
            ms: Math.round(performance.now() - started),
          });
        });
      },
    );
    req.on("error", (e) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(e);
    });
    if (r.body && r.chunked) {
      // Two chunks, so that the body really goes out chunked.
      const half = Math.floor(r.body.length / 2);
      req.write(r.body.subarray(0, half));
      req.end(r.body.subarray(half));
    } else req.end(r.body);
  });
}
