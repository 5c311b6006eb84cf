import { withConsole } from "@/lib/http/console";
import { deleteView, updateView } from "@/lib/views/service";
import * as contract from "./contract";

export const PATCH = withConsole(contract.PATCH, ({ organizationId, user, role, actor, params, body }) =>
  updateView({ organizationId, userId: user.userId, role, actor }, params.view_id, body),
);

export const DELETE = withConsole(contract.DELETE, ({ organizationId, user, role, actor, params }) =>
  deleteView({ organizationId, userId: user.userId, role, actor }, params.view_id),
);
