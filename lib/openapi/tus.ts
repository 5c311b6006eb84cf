// Resumable uploads: the tus 1.0 protocol (creation, creation-with-upload, termination,
// expiration) at /api/agents/{agent_id}/upload/tus, as app/api/agents/[agent_id]/upload/tus/[[...path]]/tus.ts serves it.
import type { AnswerDoc } from "../http/contract";
import { header, type Json } from "./builder";

export const h = (name: string) => ({ $ref: `#/components/headers/${name}` });
export const p = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** The prose of tus's own refusals: a short text/plain body (ANSWER.text()), as tus servers answer them. */
export const plain = (description: string): AnswerDoc => ({
  description,
  headers: { "Tus-Resumable": h("Tus-Resumable") },
});

export const chunk = {
  required: true,
  content: {
    "application/offset+octet-stream": {
      schema: { type: "string", format: "binary", contentMediaType: "application/offset+octet-stream" },
    },
  },
};

/** The request and answer headers of the protocol (components.headers / components.parameters). */
export function tusHeaders(): { headers: Record<string, Json>; parameters: Record<string, Json> } {
  const param = (name: string, description: string, required: boolean, schema: Json = { type: "string" }) => ({
    name,
    in: "header",
    required,
    description,
    schema,
  });
  return {
    parameters: {
      "Tus-Resumable": param("Tus-Resumable", "The protocol version: `1.0.0` (else `412`).", true, {
        type: "string",
        const: "1.0.0",
      }),
      "Upload-Length": param(
        "Upload-Length",
        "The file's size in bytes: required, at least 1 (`0` is `400 empty_file`), at most `UPLOAD_MAX_BYTES`.",
        true,
        { type: "integer", minimum: 0 },
      ),
      "Upload-Metadata": param(
        "Upload-Metadata",
        "Comma-separated `key base64(value)` pairs: `filename` (the file's name, default `file`) and `filetype` " +
          "(its `content_type`, default `application/octet-stream`).",
        false,
      ),
      "Upload-Offset": param(
        "Upload-Offset",
        "The offset the server holds (from `HEAD`): the chunk's first byte goes there (else `409`).",
        true,
        { type: "integer", minimum: 0 },
      ),
    },
    headers: {
      "Tus-Resumable": header("`1.0.0`.", { type: "string" }, true),
      "Tus-Version": header("The versions the server speaks: `1.0.0`."),
      "Tus-Extension": header("`creation,creation-with-upload,termination,expiration`."),
      "Tus-Max-Size": header("The largest upload (`UPLOAD_MAX_BYTES`).", { type: "integer" }),
      "Upload-Offset": header("Bytes the server has stored.", { type: "integer" }),
      "Upload-Length": header("The upload's size.", { type: "integer" }),
      "Upload-Expires": header("When an unfinished upload is deleted (HTTP date)."),
      "Upload-File-Id": header(
        "Once the last byte is stored: the file's `fi_` id, as the multipart upload answers it.",
      ),
    },
  };
}
