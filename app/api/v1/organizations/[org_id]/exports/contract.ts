import { USER_ERRORS } from "@/lib/openapi/management";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { CreateExportBody, ExportList, ExportListQuery, ExportRecord } from "@/lib/exports/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/exports",
  auth: "member",
  params: OrgParams,
  body: CreateExportBody,
  responses: { 201: ExportRecord },
  errors: [...USER_ERRORS, ...JSON_BODY_ERRORS, "forbidden"],
  openapi: () => ({
    operationId: "createExport",
    summary: "Export records",
    tag: "Exports",
    description:
      "Exports sessions with their messages, runs with their items, callback deliveries, the audit log " +
      "(admins only) or one end user's timeline (`filters.user_id` required) as CSV or JSON Lines, written by " +
      "a background job. Optional redaction replaces email addresses, phone numbers, payment card numbers " +
      "(Luhn-checked) and named fields (at any depth of metadata, inputs and item data) by a marker " +
      "(`[redacted:email]`, ...); `rules_applied` says which rules the export applies. Poll the export until " +
      "`status` is `succeeded`, then fetch `download_url` (valid 15 minutes, fresh on every read).",
    bodyExamples: {
      runs: {
        summary: "Failed runs, emails redacted",
        value: { kind: "runs", format: "csv", filters: { status: "failed" }, redact: { emails: true } },
      },
    },
    responses: { "201": { description: "The export, queued." } },
  }),
});

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/exports",
  auth: "member",
  params: OrgParams,
  query: ExportListQuery,
  responses: { 200: ExportList },
  errors: [...USER_ERRORS, "invalid_request"],
  openapi: () => ({
    operationId: "listExports",
    summary: "List exports",
    tag: "Exports",
    description: "Newest first, a page at a time (`next_cursor`). Support members do not see audit exports.",
    responses: { "200": { description: "The exports." } },
  }),
});
