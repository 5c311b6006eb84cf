import { createAlertRule, listAlertRules } from "@/lib/alerts/service";
import { withConsole } from "@/lib/http/console";
import { Reply } from "@/lib/http/handler";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, query }) =>
  listAlertRules({ organizationId, ...query }),
);

export const POST = withConsole(
  contract.POST,
  async ({ organizationId, actor, body }) =>
    new Reply(await createAlertRule({ organizationId, input: body, actor }), 201),
);
