import { CreateExportBody, ExportList, ExportListQuery, ExportRecord } from "@/lib/exports/schemas";
import { CONSOLE_ERRORS, CONSOLE_WRITE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/exports",
  auth: "console",
  responses: { 201: ExportRecord },
  errors: [...CONSOLE_WRITE_ERRORS, ...JSON_BODY_ERRORS, "forbidden"],
  body: CreateExportBody,
});

export const GET = route({
  method: "GET",
  path: "/api/console/exports",
  auth: "console",
  responses: { 200: ExportList },
  errors: [...CONSOLE_ERRORS],
  query: ExportListQuery,
});
