import * as ex from "@/lib/openapi/examples";
import { USER_ERRORS } from "@/lib/openapi/management";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { DeletedView, UpdateViewBody, ViewParams, ViewRecord } from "@/lib/views/schemas";
import { route } from "@/lib/http/contract";

const WHO =
  "Its owner, or an admin for a shared view: another member's shared view answers `403 forbidden` to " +
  "support, another member's personal view `404 view_not_found`.";

export const PATCH = route({
  method: "PATCH",
  path: "/api/v1/organizations/[org_id]/views/[view_id]",
  auth: "member",
  params: ViewParams,
  body: UpdateViewBody,
  responses: { 200: ViewRecord },
  errors: [...USER_ERRORS, ...JSON_BODY_ERRORS, "forbidden", "view_not_found"],
  openapi: () => ({
    operationId: "updateView",
    summary: "Change a saved view",
    tag: "Saved views",
    description: `${WHO} Only the fields given change.`,
    bodyExamples: {
      rename: { summary: "Rename it", value: { name: "Failed lately" } },
    },
    responses: {
      "200": {
        description: "The view.",
        examples: { renamed: { summary: "Renamed", value: { ...ex.viewRecord, name: "Failed lately" } } },
      },
    },
  }),
});

export const DELETE = route({
  method: "DELETE",
  path: "/api/v1/organizations/[org_id]/views/[view_id]",
  auth: "member",
  params: ViewParams,
  responses: { 200: DeletedView },
  errors: [...USER_ERRORS, "invalid_request", "forbidden", "view_not_found"],
  openapi: () => ({
    operationId: "deleteView",
    summary: "Delete a saved view",
    tag: "Saved views",
    description: `${WHO} A shared view's deletion is written to the audit log (\`saved_view.deleted\`).`,
    responses: {
      "200": {
        description: "The view is gone.",
        examples: { deleted: { summary: "Deleted", value: { view_id: ex.viewRecord.view_id, deleted: true } } },
      },
    },
  }),
});
