import { ADMIN_ERRORS, USER_ERRORS } from "@/lib/openapi/management";
import * as ex from "@/lib/openapi/examples";
import { DeletedFile, FileLink, FileParams } from "@/lib/files/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/files/[file_id]",
  auth: "member",
  params: FileParams,
  responses: { 200: FileLink },
  errors: [...USER_ERRORS, "invalid_request", "agent_not_found", "not_found"],
  openapi: () => ({
    operationId: "getAgentFileLink",
    summary: "A download link of an uploaded file",
    tag: "Uploaded files",
    description:
      "Every member. A signed link to the file's bytes (`GET /api/files/download`, no credentials needed), " +
      "valid 15 minutes. A file of another agent, or none: `404 not_found`.",
    responses: {
      "200": {
        description: "The link.",
        examples: {
          link: {
            summary: "A signed link",
            value: {
              file_id: ex.ID.file,
              filename: "orders.csv",
              download_url: "https://agents.example.com/api/files/download?token=eyJrIjoi...",
              expires_at: "2026-11-25T22:15:04.000Z",
            },
          },
        },
      },
    },
  }),
});

export const DELETE = route({
  method: "DELETE",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/files/[file_id]",
  auth: "member",
  admin: true,
  params: FileParams,
  responses: { 200: DeletedFile },
  errors: [...ADMIN_ERRORS, "invalid_request", "agent_not_found", "not_found"],
  openapi: () => ({
    operationId: "deleteAgentFile",
    summary: "Delete an uploaded file",
    tag: "Uploaded files",
    description:
      "Admin only. The file's record and its bytes; triggers that still name it get `400 file_not_found`. " +
      "Written to the audit log (`file.deleted`). A file of another agent, or none: `404 not_found`.",
    responses: {
      "200": {
        description: "The file is gone.",
        examples: { deleted: { summary: "Deleted", value: { file_id: ex.ID.file, deleted: true } } },
      },
    },
  }),
});
