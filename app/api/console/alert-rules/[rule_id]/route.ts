import { deleteAlertRule, updateAlertRule } from "@/lib/alerts/service";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const PATCH = withConsole(contract.PATCH, ({ organizationId, actor, params, body }) =>
  updateAlertRule({ organizationId, ruleId: params.rule_id, input: body, actor }),
);

export const DELETE = withConsole(contract.DELETE, ({ organizationId, actor, params }) =>
  deleteAlertRule({ organizationId, ruleId: params.rule_id, actor }),
);
