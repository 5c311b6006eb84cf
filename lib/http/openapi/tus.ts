// Resumable uploads: the tus 1.0 protocol (creation, creation-with-upload, termination,
// expiration) at /api/agents/{agent_id}/upload/tus, as lib/http/tus.ts serves it.
import { UploadedFile } from "../../files/schemas";
import { header, jsonContent, pathParameter, type Components, type Json, type Operation } from "./builder";
import * as ex from "./examples";
import { AGENT_ID } from "./public";

const BASE = "/api/agents/{agent_id}/upload/tus";
const UPLOAD_ID = pathParameter(
  "upload_id",
  "The upload (`upl_...`): the last segment of the `Location` the creation answered.",
  ex.ID.upload,
);

const h = (name: string) => ({ $ref: `#/components/headers/${name}` });
const p = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** tus's own refusals: a short text/plain body, as tus servers answer them. */
const plain = (description: string): Json => ({
  description,
  headers: { "Tus-Resumable": h("Tus-Resumable") },
  content: { "text/plain": { schema: { type: "string" } } },
});

const chunk = {
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

export function tusOperations(c: Components): Operation[] {
  const common = { tag: "Resumable uploads (tus)", auth: "accessKey" as const };
  const keyErrors = ["unauthorized", "forbidden", "agent_not_found", "rate_limited"] as const;
  return [
    {
      ...common,
      auth: "none",
      method: "options",
      path: BASE,
      operationId: "tusOptions",
      summary: "Discover the tus server",
      description: "No key needed: the protocol's capabilities.",
      parameters: [AGENT_ID],
      responses: {
        "204": {
          description: "The capabilities.",
          headers: {
            "Tus-Resumable": h("Tus-Resumable"),
            "Tus-Version": h("Tus-Version"),
            "Tus-Extension": h("Tus-Extension"),
            "Tus-Max-Size": h("Tus-Max-Size"),
          },
        },
      },
      errors: [],
    },
    {
      ...common,
      method: "post",
      path: BASE,
      operationId: "tusCreate",
      summary: "Create a resumable upload",
      description:
        "Creates an upload of `Upload-Length` bytes. With a body (`Content-Type: " +
        "application/offset+octet-stream`, creation-with-upload) its bytes are stored at once. `Location` " +
        "(relative) is the upload's URL: keep it to resume. An unfinished upload expires after " +
        "`UPLOAD_EXPIRY_HOURS` (24 by default).",
      parameters: [AGENT_ID, p("Tus-Resumable"), p("Upload-Length"), p("Upload-Metadata")],
      requestBody: { ...chunk, required: false },
      responses: {
        "201": {
          description: "Created.",
          headers: {
            Location: header("`/api/agents/{agent_id}/upload/tus/{upload_id}`.", { type: "string" }, true),
            "Tus-Resumable": h("Tus-Resumable"),
            "Upload-Expires": h("Upload-Expires"),
            "Upload-Offset": h("Upload-Offset"),
            "Upload-File-Id": h("Upload-File-Id"),
          },
        },
        "400": plain("`Upload-Length` missing or not a number, or another invalid tus header."),
        "412": plain("`Tus-Resumable` missing or not `1.0.0`."),
        "413": plain("`Upload-Length` over `UPLOAD_MAX_BYTES`."),
        "501": plain("`Upload-Defer-Length`: the length must be known."),
      },
      errors: [...keyErrors, "empty_file", "agent_archived"],
    },
    {
      ...common,
      method: "head",
      path: `${BASE}/{upload_id}`,
      operationId: "tusHead",
      summary: "Ask how much of an upload is stored",
      description: "After a failure, continue from `Upload-Offset`. Once finished, `Upload-File-Id` names the file.",
      parameters: [AGENT_ID, UPLOAD_ID, p("Tus-Resumable")],
      responses: {
        "200": {
          description: "The upload's state (no body).",
          headers: {
            "Tus-Resumable": h("Tus-Resumable"),
            "Upload-Offset": h("Upload-Offset"),
            "Upload-Length": h("Upload-Length"),
            "Upload-Metadata": header("As given at creation."),
            "Upload-File-Id": h("Upload-File-Id"),
            "Cache-Control": header("`no-store`."),
          },
        },
        "410": plain("The upload expired."),
        "412": plain("`Tus-Resumable` missing or not `1.0.0`."),
      },
      errors: [...keyErrors, "upload_not_found"],
    },
    {
      ...common,
      method: "patch",
      path: `${BASE}/{upload_id}`,
      operationId: "tusPatch",
      summary: "Send the next bytes",
      description:
        "The bytes from `Upload-Offset` on, any chunk size, with `Content-Type: application/offset+octet-stream` " +
        "(without it, or with another type: `415 unsupported_media_type`, as tus 1.0 says). The PATCH that stores " +
        "the last byte answers `Upload-File-Id`. PATCH requests do not count against the key's rate limit.",
      parameters: [AGENT_ID, UPLOAD_ID, p("Tus-Resumable"), p("Upload-Offset")],
      requestBody: chunk,
      responses: {
        "204": {
          description: "Stored.",
          headers: {
            "Tus-Resumable": h("Tus-Resumable"),
            "Upload-Offset": h("Upload-Offset"),
            "Upload-Expires": h("Upload-Expires"),
            "Upload-File-Id": h("Upload-File-Id"),
          },
        },
        "400": plain("An invalid tus header."),
        "409": plain("`Upload-Offset` is not the server's: ask `HEAD` and continue from its offset."),
        "410": plain("The upload expired."),
        "412": plain("`Tus-Resumable` missing or not `1.0.0`."),
        "413": plain("The bytes would go past `Upload-Length`."),
      },
      errors: [...keyErrors, "upload_not_found", "agent_archived", "unsupported_media_type"],
    },
    {
      ...common,
      method: "delete",
      path: `${BASE}/{upload_id}`,
      operationId: "tusDelete",
      summary: "Delete an unfinished upload",
      description:
        "Termination: its bytes and record go; its URL then answers `404`. A finished upload is a file (`400`).",
      parameters: [AGENT_ID, UPLOAD_ID, p("Tus-Resumable")],
      responses: {
        "204": { description: "Deleted.", headers: { "Tus-Resumable": h("Tus-Resumable") } },
        "400": plain("The upload is finished: it is a file and cannot be deleted."),
        "412": plain("`Tus-Resumable` missing or not `1.0.0`."),
      },
      errors: [...keyErrors, "upload_not_found"],
    },
    {
      ...common,
      method: "get",
      path: `${BASE}/{upload_id}`,
      operationId: "tusGetFile",
      summary: "Fetch a finished upload's file",
      description:
        "The file object the multipart upload answers (SPEC 4.2). No `Tus-Resumable` needed. While bytes are " +
        "missing: `409 upload_incomplete` with `details: {offset, length}`.",
      parameters: [AGENT_ID, UPLOAD_ID],
      responses: {
        "200": {
          description: "The file.",
          headers: {},
          content: jsonContent(c.ref("UploadedFile", UploadedFile), {
            file: { summary: "The file", value: ex.uploadedFile },
          }),
        },
      },
      errors: [...keyErrors, "upload_not_found", "upload_incomplete"],
    },
  ];
}
