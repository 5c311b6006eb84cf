import { USER_ERRORS } from "@/lib/openapi/management";
import { TAG, bulkActionRecord, bulkPreview } from "@/lib/openapi/org-work";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { BulkPreview, BulkPreviewBody } from "@/lib/bulk/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/bulk-actions/preview",
  auth: "member",
  params: OrgParams,
  body: BulkPreviewBody,
  responses: { 200: BulkPreview },
  errors: [...USER_ERRORS, ...JSON_BODY_ERRORS, "forbidden", "invalid_status"],
  openapi: () => ({
    operationId: "previewBulkAction",
    summary: "Preview a bulk action",
    tag: TAG.bulk,
    description:
      "A dry run of `startBulkAction` (the same roles): how many targets the selection matches, how many of " +
      "them the action applies to now, why the others would be skipped, and the first ten. Changes nothing.",
    bodyExamples: {
      cancel: {
        summary: "Cancel the paused runs of an agent",
        value: { action: "cancel", selection: bulkActionRecord.selection },
      },
    },
    responses: {
      "200": {
        description: "What the action would do.",
        examples: { preview: { summary: "Two of three", value: bulkPreview } },
      },
    },
  }),
});
