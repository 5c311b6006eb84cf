import { header } from "@/lib/openapi/builder";
import { USER_ERRORS } from "@/lib/openapi/management";
import { binaryFile } from "@/lib/openapi/parts";
import { ExportDownloadQuery, ExportParams } from "@/lib/exports/schemas";
import { ANSWER, route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/exports/[export_id]/download",
  auth: "member",
  params: ExportParams,
  query: ExportDownloadQuery,
  responses: { 200: ANSWER.file, 206: ANSWER.file, 302: ANSWER.redirect },
  errors: [
    ...USER_ERRORS,
    "invalid_request",
    "export_not_found",
    "export_not_ready",
    "export_expired",
    "invalid_signature",
    "url_expired",
    "not_found",
    "range_not_satisfiable",
  ],
  openapi: () => ({
    operationId: "downloadExport",
    summary: "Download an export (signed link)",
    tag: "Exports",
    description:
      "The `download_url` of the export: its token names the export and its organization and expires after " +
      "15 minutes (`403 url_expired`; altered: `403 invalid_signature`); the caller's token must be of a " +
      "member too. The file is an attachment (`text/csv` or `application/x-ndjson`); after 7 days it is " +
      "deleted (`410 export_expired`). Each download is recorded in the audit log.",
    responses: {
      "200": binaryFile("The export's file."),
      "206": binaryFile("The requested range.", { "Content-Range": header("`bytes start-end/size`.") }),
      "302": {
        description: "S3 storage, whole file: fetch the presigned URL in `Location` (valid 15 minutes).",
        headers: { Location: header("Presigned GET of the stored object.", { type: "string", format: "uri" }, true) },
      },
    },
  }),
});
