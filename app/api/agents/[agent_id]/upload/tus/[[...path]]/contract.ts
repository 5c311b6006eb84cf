// The tus routes: ./tus.ts serves every method, one handler per contract (its own Access Key
// or console-session check; OPTIONS is open, as the protocol wants). Its answers are the protocol's:
// no body, or a short plain-text refusal, but for GET's file object.
import * as ex from "@/lib/openapi/examples";
import { TusUploadParams, UploadedFile } from "@/lib/files/schemas";
import { header } from "@/lib/openapi/builder";
import { KEY_ERRORS } from "@/lib/openapi/parts";
import { chunk, h, p, plain } from "@/lib/openapi/tus";
import { ANSWER, route } from "@/lib/http/contract";
import { AgentParams } from "@/lib/validate";

/** Every method: one route file, and uploads are allowed UPLOAD_TIMEOUT_MS. */
const TUS = { path: "/api/agents/[agent_id]/upload/tus/[[...path]]", timeout: "long" } as const;
const KEYED = { ...TUS, auth: "accessKey" } as const;
const TAG = "Resumable uploads (tus)";
/** tus's own refusals: a short text/plain body. */
const PLAIN = ANSWER.text();

export const OPTIONS = route({
  method: "OPTIONS",
  ...TUS,
  auth: "public",
  responses: { 204: ANSWER.none },
  errors: [],
  openapi: () => ({
    path: "/api/agents/{agent_id}/upload/tus",
    pathParams: AgentParams,
    operationId: "tusOptions",
    summary: "Discover the tus server",
    tag: TAG,
    description: "No key needed: the protocol's capabilities.",
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
  }),
});

export const POST = route({
  method: "POST",
  ...KEYED,
  responses: { 201: ANSWER.none, 400: PLAIN, 412: PLAIN, 413: PLAIN, 501: PLAIN },
  errors: [...KEY_ERRORS, "empty_file", "agent_archived"],
  openapi: () => ({
    path: "/api/agents/{agent_id}/upload/tus",
    pathParams: AgentParams,
    operationId: "tusCreate",
    summary: "Create a resumable upload",
    tag: TAG,
    description:
      "Creates an upload of `Upload-Length` bytes. With a body (`Content-Type: " +
      "application/offset+octet-stream`, creation-with-upload) its bytes are stored at once. `Location` " +
      "(relative) is the upload's URL: keep it to resume. An unfinished upload expires after " +
      "`UPLOAD_EXPIRY_HOURS` (24 by default).",
    parameters: [p("Tus-Resumable"), p("Upload-Length"), p("Upload-Metadata")],
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
  }),
});

export const HEAD = route({
  method: "HEAD",
  ...KEYED,
  responses: { 200: ANSWER.none, 410: PLAIN, 412: PLAIN },
  errors: [...KEY_ERRORS, "upload_not_found"],
  openapi: () => ({
    path: "/api/agents/{agent_id}/upload/tus/{upload_id}",
    pathParams: TusUploadParams,
    operationId: "tusHead",
    summary: "Ask how much of an upload is stored",
    tag: TAG,
    description: "After a failure, continue from `Upload-Offset`. Once finished, `Upload-File-Id` names the file.",
    parameters: [p("Tus-Resumable")],
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
  }),
});

export const PATCH = route({
  method: "PATCH",
  ...KEYED,
  responses: { 204: ANSWER.none, 400: PLAIN, 409: PLAIN, 410: PLAIN, 412: PLAIN, 413: PLAIN },
  errors: [...KEY_ERRORS, "upload_not_found", "agent_archived", "unsupported_media_type"],
  openapi: () => ({
    path: "/api/agents/{agent_id}/upload/tus/{upload_id}",
    pathParams: TusUploadParams,
    operationId: "tusPatch",
    summary: "Send the next bytes",
    tag: TAG,
    description:
      "The bytes from `Upload-Offset` on, any chunk size, with `Content-Type: application/offset+octet-stream` " +
      "(without it, or with another type: `415 unsupported_media_type`, as tus 1.0 says). The PATCH that stores " +
      "the last byte answers `Upload-File-Id`. PATCH requests do not count against the key's rate limit.",
    parameters: [p("Tus-Resumable"), p("Upload-Offset")],
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
  }),
});

export const DELETE = route({
  method: "DELETE",
  ...KEYED,
  responses: { 204: ANSWER.none, 400: PLAIN, 412: PLAIN },
  errors: [...KEY_ERRORS, "upload_not_found"],
  openapi: () => ({
    path: "/api/agents/{agent_id}/upload/tus/{upload_id}",
    pathParams: TusUploadParams,
    operationId: "tusDelete",
    summary: "Delete an unfinished upload",
    tag: TAG,
    description:
      "Termination: its bytes and record go; its URL then answers `404`. A finished upload is a file (`400`).",
    parameters: [p("Tus-Resumable")],
    responses: {
      "204": { description: "Deleted.", headers: { "Tus-Resumable": h("Tus-Resumable") } },
      "400": plain("The upload is finished: it is a file and cannot be deleted."),
      "412": plain("`Tus-Resumable` missing or not `1.0.0`."),
    },
  }),
});

export const GET = route({
  method: "GET",
  ...KEYED,
  responses: { 200: UploadedFile },
  errors: [...KEY_ERRORS, "upload_not_found", "upload_incomplete"],
  openapi: () => ({
    path: "/api/agents/{agent_id}/upload/tus/{upload_id}",
    pathParams: TusUploadParams,
    operationId: "tusGetFile",
    summary: "Fetch a finished upload's file",
    tag: TAG,
    description:
      "The file object the multipart upload answers. No `Tus-Resumable` needed. While bytes are " +
      "missing: `409 upload_incomplete` with `details: {offset, length}`.",
    responses: {
      "200": { description: "The file.", examples: { file: { summary: "The file", value: ex.uploadedFile } } },
    },
  }),
});
