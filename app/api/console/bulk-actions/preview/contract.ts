import { BulkPreview, BulkPreviewBody } from "@/lib/bulk/schemas";
import { CONSOLE_WRITE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/bulk-actions/preview",
  auth: "console",
  responses: { 200: BulkPreview },
  errors: [...CONSOLE_WRITE_ERRORS, ...JSON_BODY_ERRORS, "forbidden", "invalid_status"],
  body: BulkPreviewBody,
});
