import { withMember } from "@/lib/http/member";
import { changeRole, removeMember } from "@/lib/orgs/members";
import * as contract from "./contract";

export const PATCH = withMember(contract.PATCH, ({ organizationId, actor, params, body }) =>
  changeRole({ organizationId, userId: String(params.user_id), role: body.role, actor }),
);

export const DELETE = withMember(contract.DELETE, ({ organizationId, actor, params }) =>
  removeMember({ organizationId, userId: String(params.user_id), actor }),
);
