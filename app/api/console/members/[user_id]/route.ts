import { withConsole } from "@/lib/http/console";
import { changeRole, removeMember } from "@/lib/orgs/members";
import { ChangeRoleBody } from "@/lib/orgs/schemas";

export const PATCH = withConsole({ body: ChangeRoleBody, admin: true }, ({ organizationId, actor, params, body }) =>
  changeRole({ organizationId, userId: String(params.user_id), role: body.role, actor }),
);

export const DELETE = withConsole({ admin: true }, ({ organizationId, actor, params }) =>
  removeMember({ organizationId, userId: String(params.user_id), actor }),
);
