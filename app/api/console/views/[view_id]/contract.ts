import { DeletedView, UpdateViewBody, ViewParams, ViewRecord } from "@/lib/views/schemas";
import { CONSOLE_WRITE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const PATCH = route({
  method: "PATCH",
  path: "/api/console/views/[view_id]",
  auth: "console",
  responses: { 200: ViewRecord },
  errors: [...CONSOLE_WRITE_ERRORS, ...JSON_BODY_ERRORS, "forbidden", "view_not_found"],
  params: ViewParams,
  body: UpdateViewBody,
});

export const DELETE = route({
  method: "DELETE",
  path: "/api/console/views/[view_id]",
  auth: "console",
  responses: { 200: DeletedView },
  errors: [...CONSOLE_WRITE_ERRORS, "forbidden", "view_not_found"],
  params: ViewParams,
});
