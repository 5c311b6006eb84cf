import { USER_ERRORS } from "@/lib/openapi/management";
import { TAG, bulkActionRecord } from "@/lib/openapi/org-work";
import { BulkActionParams, BulkActionRecord } from "@/lib/bulk/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/bulk-actions/[bulk_action_id]",
  auth: "member",
  params: BulkActionParams,
  responses: { 200: BulkActionRecord },
  errors: [...USER_ERRORS, "invalid_request", "bulk_action_not_found"],
  openapi: () => ({
    operationId: "getBulkAction",
    summary: "Get a bulk action",
    tag: TAG.bulk,
    description:
      "Every member. A bulk action and its progress: `processed` of `total`, the counts done, skipped and " +
      "failed, and why targets were skipped.",
    responses: {
      "200": { description: "The bulk action.", examples: { done: { summary: "Finished", value: bulkActionRecord } } },
    },
  }),
});
