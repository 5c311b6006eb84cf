// Reading a whole stream with a byte cap: request bodies (lib/http) and upstream answers
import { processOnce } from "./process-state";
// (lib/runtime) both stop, cancelling the stream, as soon as the cap is passed.

/** Reads a whole stream, but stops (cancelling it) and throws `tooLarge()` past `cap` bytes. */
export async function readStreamCapped(
  body: ReadableStream<Uint8Array> | null,
  cap: number,
  tooLarge: () => Error,
): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/**
 * `readStreamCapped` for a Node stream (a request body server.ts handed over: `takeRawBody`). Past
 * `cap` it stops collecting and lets the rest flow away unread (so that a kept-alive connection can
 * go on to its next request), and throws `tooLarge()`; a stream that fails or closes before its end
 * (the client went away) throws `cut()`.
 */
export function readNodeStreamCapped(
  body: NodeJS.ReadableStream,
  cap: number,
  tooLarge: () => Error,
  cut: () => Error,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err?: Error) => {
      body.removeListener("data", onData);
      body.removeListener("end", onEnd);
      body.removeListener("error", onCut);
      body.removeListener("close", onCut);
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size <= cap) chunks.push(bytes);
      else {
        done(tooLarge());
        body.resume();
      }
    };
    const onEnd = () => done();
    const onCut = () => done(cut());
    body.on("data", onData);
    body.on("end", onEnd);
    body.on("error", onCut);
    body.on("close", onCut);
  });
}

/**
 * The raw request body of a multipart upload, or of a hot route's POST (the trigger, served by
 * lib/server/fast-routes.ts), handed over by the production server (server.ts) under a random id in
 * this header, so that the route reads Node's own stream: Next gives route handlers a web stream
 * wrapped around it, and converting each chunk to a web stream and back cost half the upload's
 * throughput (bench/upload.bench.ts; docs/benchmarks.md) and a tenth of the trigger's CPU. A client
 * cannot set the header: the server replaces it on every request, and an unknown id finds nothing.
 */
export const RAW_BODY_HEADER = "x-awhs-raw-body";

const rawBodies = processOnce("rawBodies", () => new Map<string, NodeJS.ReadableStream>());

/** server.ts: makes `body` available to the route under `id` until `done` (the response closed). */
export function offerRawBody(id: string, body: NodeJS.ReadableStream): () => void {
  rawBodies.set(id, body);
  return () => rawBodies.delete(id);
}

/** The route: the request's own Node stream when the server offered it (once), else undefined. */
export function takeRawBody(headers: Headers): NodeJS.ReadableStream | undefined {
  const id = headers.get(RAW_BODY_HEADER);
  if (!id) return undefined;
  const body = rawBodies.get(id);
  rawBodies.delete(id);
  return body;
}
