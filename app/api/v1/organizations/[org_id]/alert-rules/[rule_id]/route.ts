import { deleteAlertRule, getAlertRule, updateAlertRule } from "@/lib/alerts/service";
import { withUserToken } from "@/lib/http/handler";
import * as contract from "./contract";

export const GET = withUserToken(contract.GET, ({ organizationId, params }) =>
  getAlertRule({ organizationId, ruleId: params.rule_id }),
);

export const PATCH = withUserToken(contract.PATCH, ({ organizationId, actor, params, body }) =>
  updateAlertRule({ organizationId, ruleId: params.rule_id, input: body, actor }),
);

export const DELETE = withUserToken(contract.DELETE, ({ organizationId, actor, params }) =>
  deleteAlertRule({ organizationId, ruleId: params.rule_id, actor }),
);
