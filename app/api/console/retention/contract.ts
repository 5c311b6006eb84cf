import { RetentionQuery, RetentionSetting, SetRetentionBody } from "@/lib/retention/schemas";
import { CONSOLE_ADMIN_ERRORS, CONSOLE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

// Every member reads the setting (support sees the page read-only); admins change it.
export const GET = route({
  method: "GET",
  path: "/api/console/retention",
  auth: "console",
  query: RetentionQuery,
  responses: { 200: RetentionSetting },
  errors: [...CONSOLE_ERRORS],
});

export const PATCH = route({
  method: "PATCH",
  path: "/api/console/retention",
  auth: "console",
  body: SetRetentionBody,
  admin: true,
  responses: { 200: RetentionSetting },
  errors: [...CONSOLE_ADMIN_ERRORS, ...JSON_BODY_ERRORS],
});
