import * as ex from "@/lib/openapi/examples";
import { UploadedFile } from "@/lib/files/schemas";
import { KEY_ERRORS } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";
import { AgentParams } from "@/lib/validate";

export const POST = route({
  method: "POST",
  path: "/api/agents/[agent_id]/upload",
  auth: "accessKey",
  params: AgentParams,
  timeout: "long",
  responses: { 200: UploadedFile },
  errors: [
    ...KEY_ERRORS,
    "missing_file",
    "empty_file",
    "invalid_request",
    "agent_archived",
    "payload_too_large",
    "unsupported_media_type",
    "upload_failed",
  ],
  openapi: () => ({
    operationId: "uploadFile",
    summary: "Upload a file",
    tag: "Files",
    description:
      "A `multipart/form-data` body with exactly one part named `file`, streamed to storage (no size cap on " +
      "the wire but `UPLOAD_MAX_BYTES`, 50 GiB by default; up to 60 minutes). The answer's `file_id` is used " +
      'as `{"file_id": "fi_..."}` in a trigger body of the same agent. A failed or aborted upload leaves ' +
      "nothing behind. For unreliable links use the resumable (tus) endpoint.",
    requestBody: {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: {
              file: {
                type: "string",
                format: "binary",
                contentMediaType: "application/octet-stream",
                description: "The file; its part's filename and Content-Type are kept.",
              },
            },
            required: ["file"],
          },
        },
      },
    },
    responses: {
      "200": { description: "The stored file.", examples: { file: { summary: "A CSV file", value: ex.uploadedFile } } },
    },
  }),
});
