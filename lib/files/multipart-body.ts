// A streamed multipart/form-data body with one file part, for clients that must not buffer a large
// file (the API tests' slow client, the upload benchmark): head + file bytes + tail, exact length.
import { randomBytes } from "node:crypto";

export interface MultipartEnvelope {
  contentType: string;
  head: Buffer;
  tail: Buffer;
  /** Total body length for `fileSize` bytes of file content. */
  length(fileSize: number): number;
}

export function multipartEnvelope(part: { name?: string; filename: string; contentType?: string }): MultipartEnvelope {
  const boundary = `----aws${randomBytes(12).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\n` +
      `Content-Disposition: form-data; name="${part.name ?? "file"}"; filename="${part.filename}"\r\n` +
      (part.contentType ? `Content-Type: ${part.contentType}\r\n` : "") +
      `\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    head,
    tail,
    length: (fileSize) => head.length + fileSize + tail.length,
  };
}
