import { withMember } from "@/lib/http/member";
import { deleteView, updateView } from "@/lib/views/service";
import * as contract from "./contract";

export const PATCH = withMember(contract.PATCH, ({ organizationId, user, role, actor, params, body }) =>
  updateView({ organizationId, userId: user.userId, role, actor }, params.view_id, body),
);

export const DELETE = withMember(contract.DELETE, ({ organizationId, user, role, actor, params }) =>
  deleteView({ organizationId, userId: user.userId, role, actor }, params.view_id),
);
