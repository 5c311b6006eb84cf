import { deleteAlertRule, getAlertRule, updateAlertRule } from "@/lib/alerts/service";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, params }) =>
  getAlertRule({ organizationId, ruleId: params.rule_id }),
);

export const PATCH = withMember(contract.PATCH, ({ organizationId, actor, params, body }) =>
  updateAlertRule({ organizationId, ruleId: params.rule_id, input: body, actor }),
);

export const DELETE = withMember(contract.DELETE, ({ organizationId, actor, params }) =>
  deleteAlertRule({ organizationId, ruleId: params.rule_id, actor }),
);
