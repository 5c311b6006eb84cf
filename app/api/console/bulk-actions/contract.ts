import { BulkActionListQuery, BulkActionPage, BulkActionRecord, StartBulkActionBody } from "@/lib/bulk/schemas";
import { CONSOLE_ERRORS, CONSOLE_WRITE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/bulk-actions",
  auth: "console",
  responses: { 200: BulkActionPage },
  errors: [...CONSOLE_ERRORS],
  query: BulkActionListQuery,
});

export const POST = route({
  method: "POST",
  path: "/api/console/bulk-actions",
  auth: "console",
  responses: { 202: BulkActionRecord },
  errors: [...CONSOLE_WRITE_ERRORS, ...JSON_BODY_ERRORS, "forbidden", "invalid_status", "selection_changed"],
  body: StartBulkActionBody,
});
