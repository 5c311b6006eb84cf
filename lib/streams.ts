// Reading a whole stream with a byte cap: request bodies (lib/http) and upstream answers
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
