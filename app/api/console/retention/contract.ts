import { RetentionQuery, SetRetentionBody } from "@/lib/retention/schemas";
import { route } from "@/lib/http/contract";

// Every member reads the setting (support sees the page read-only); admins change it.
export const GET = route({
  method: "GET",
  path: "/api/console/retention",
  auth: "console",
  query: RetentionQuery,
});

export const PATCH = route({
  method: "PATCH",
  path: "/api/console/retention",
  auth: "console",
  body: SetRetentionBody,
  admin: true,
});
