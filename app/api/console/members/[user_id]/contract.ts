import { ChangeRoleBody } from "@/lib/orgs/schemas";
import { route } from "@/lib/http/contract";

export const PATCH = route({
  method: "PATCH",
  path: "/api/console/members/[user_id]",
  auth: "console",
  body: ChangeRoleBody,
  admin: true,
});

export const DELETE = route({
  method: "DELETE",
  path: "/api/console/members/[user_id]",
  auth: "console",
  admin: true,
});
