import { USER_ERRORS } from "@/lib/openapi/management";
import { ExportParams, ExportRecord } from "@/lib/exports/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/exports/[export_id]",
  auth: "member",
  params: ExportParams,
  responses: { 200: ExportRecord },
  errors: [...USER_ERRORS, "invalid_request", "export_not_found"],
  openapi: () => ({
    operationId: "getExport",
    summary: "Get an export",
    tag: "Exports",
    description:
      "Its status and progress (`rows_written` of about `rows_estimated`), the redaction rules it applied and, " +
      "once it succeeded, a fresh `download_url` valid 15 minutes.",
    responses: { "200": { description: "The export." } },
  }),
});
