import { ExportDownloadQuery, ExportParams } from "@/lib/exports/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { ANSWER, route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/exports/[export_id]/download",
  auth: "console",
  responses: { 200: ANSWER.file, 206: ANSWER.file, 302: ANSWER.redirect },
  errors: [
    ...CONSOLE_ERRORS,
    "export_not_found",
    "export_not_ready",
    "export_expired",
    "invalid_signature",
    "url_expired",
    "not_found",
    "range_not_satisfiable",
  ],
  params: ExportParams,
  query: ExportDownloadQuery,
});
