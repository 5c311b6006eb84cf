import { BulkActionParams, BulkActionRecord } from "@/lib/bulk/schemas";
import { CONSOLE_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/bulk-actions/[bulk_action_id]",
  auth: "console",
  responses: { 200: BulkActionRecord },
  errors: [...CONSOLE_ERRORS, "bulk_action_not_found"],
  params: BulkActionParams,
});
