import { CreateViewBody, ViewPage, ViewRecord, ViewsQuery } from "@/lib/views/schemas";
import { CONSOLE_ERRORS, CONSOLE_WRITE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/views",
  auth: "console",
  responses: { 200: ViewPage },
  errors: [...CONSOLE_ERRORS],
  query: ViewsQuery,
});

export const POST = route({
  method: "POST",
  path: "/api/console/views",
  auth: "console",
  responses: { 201: ViewRecord },
  errors: [...CONSOLE_WRITE_ERRORS, ...JSON_BODY_ERRORS, "too_many_views"],
  body: CreateViewBody,
});
