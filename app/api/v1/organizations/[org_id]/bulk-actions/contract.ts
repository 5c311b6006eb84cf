import { USER_ERRORS } from "@/lib/openapi/management";
import { TAG, bulkActionRecord } from "@/lib/openapi/org-work";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { BulkActionListQuery, BulkActionPage, BulkActionRecord, StartBulkActionBody } from "@/lib/bulk/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/bulk-actions",
  auth: "member",
  params: OrgParams,
  query: BulkActionListQuery,
  responses: { 200: BulkActionPage },
  errors: [...USER_ERRORS, "invalid_request"],
  openapi: () => ({
    operationId: "listBulkActions",
    summary: "List bulk actions",
    tag: TAG.bulk,
    description:
      "Every member. The organization's bulk actions, newest first, with their progress. A page at a time: " +
      "`next_cursor` (null on the last page) passed as `cursor` answers the next page.",
    responses: {
      "200": {
        description: "The bulk actions.",
        examples: {
          list: {
            summary: "One finished",
            value: { bulk_actions: [bulkActionRecord], has_more: false, next_cursor: null },
          },
        },
      },
    },
  }),
});

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/bulk-actions",
  auth: "member",
  params: OrgParams,
  body: StartBulkActionBody,
  responses: { 202: BulkActionRecord },
  errors: [...USER_ERRORS, ...JSON_BODY_ERRORS, "forbidden", "invalid_status", "selection_changed"],
  openapi: () => ({
    operationId: "startBulkAction",
    summary: "Start a bulk action",
    tag: TAG.bulk,
    description:
      "A run control (`pause`, `resume`, `retry`, `cancel`) on many runs, by every member, or `revoke` on many " +
      "Access Keys, by an admin only (`403 forbidden`). The selection is ids (`run_ids`, `key_ids`, at most 1000) " +
      "or the runs list's `filter` (its query without paging). With `expected_count`, the `allowed` count of the " +
      "preview the person confirmed, a selection that now counts otherwise is `409 selection_changed`. It runs " +
      "in the background: read it back with `getBulkAction`. Written to the audit log.",
    bodyExamples: {
      cancel: {
        summary: "Cancel the paused runs of an agent",
        value: { action: "cancel", selection: bulkActionRecord.selection, expected_count: 2 },
      },
    },
    responses: {
      "202": {
        description: "Started.",
        examples: {
          started: {
            summary: "Queued",
            value: {
              ...bulkActionRecord,
              status: "pending",
              processed: 0,
              counts: { done: 0, skipped: 0, failed: 0 },
              skipped_reasons: [],
              completed_at: null,
            },
          },
        },
      },
    },
  }),
});
