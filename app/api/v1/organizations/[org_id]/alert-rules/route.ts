import { createAlertRule, listAlertRules } from "@/lib/alerts/service";
import { Reply, withUserToken } from "@/lib/http/handler";
import * as contract from "./contract";

export const POST = withUserToken(
  contract.POST,
  async ({ organizationId, actor, body }) =>
    new Reply(await createAlertRule({ organizationId, input: body, actor }), 201),
);

export const GET = withUserToken(contract.GET, ({ organizationId, query }) =>
  listAlertRules({ organizationId, ...query }),
);
