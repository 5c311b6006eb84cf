import { ExportParams, ExportRecord } from "@/lib/exports/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/exports/[export_id]",
  auth: "console",
  responses: { 200: ExportRecord },
  errors: [...CONSOLE_ERRORS, "export_not_found"],
  params: ExportParams,
});
