import { withConsole } from "@/lib/http/console";
import { changeRole, removeMember } from "@/lib/orgs/members";
import * as contract from "./contract";

export const PATCH = withConsole(contract.PATCH, ({ organizationId, actor, params, body }) =>
  changeRole({ organizationId, userId: String(params.user_id), role: body.role, actor }),
);

export const DELETE = withConsole(contract.DELETE, ({ organizationId, actor, params }) =>
  removeMember({ organizationId, userId: String(params.user_id), actor }),
);
