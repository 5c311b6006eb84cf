import { USER_ERRORS } from "@/lib/openapi/management";
import * as ex from "@/lib/openapi/examples";
import { AgentFilePage, AgentFilesQuery } from "@/lib/files/schemas";
import { route } from "@/lib/http/contract";
import { OrgAgentParams } from "@/lib/validate";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/agents/[agent_id]/files",
  auth: "member",
  params: OrgAgentParams,
  query: AgentFilesQuery,
  responses: { 200: AgentFilePage },
  errors: [...USER_ERRORS, "invalid_request", "agent_not_found"],
  openapi: () => ({
    operationId: "listAgentFiles",
    summary: "List an agent's uploaded files",
    tag: "Uploaded files",
    description:
      "Every member. The files uploaded to the agent (multipart or tus), newest first, with the console's " +
      "`from` and `to` filters. A page at a time: `next_cursor` (null on the last page) passed as `cursor`, " +
      "with the same filters, answers the next page.",
    responses: {
      "200": {
        description: "The files.",
        examples: {
          files: {
            summary: "One file",
            value: {
              files: [
                {
                  file_id: ex.ID.file,
                  filename: "orders.csv",
                  content_type: "text/csv",
                  size_bytes: 36,
                  created_at: "2026-11-25T22:00:00.000Z",
                },
              ],
              has_more: false,
              next_cursor: null,
            },
          },
        },
      },
    },
  }),
});
