import { createAlertRule, listAlertRules } from "@/lib/alerts/service";
import { HttpAnswer } from "@/lib/http/handler";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const POST = withMember(
  contract.POST,
  async ({ organizationId, actor, body }) =>
    new HttpAnswer(await createAlertRule({ organizationId, input: body, actor }), 201),
);

export const GET = withMember(contract.GET, ({ organizationId, query }) =>
  listAlertRules({ organizationId, ...query }),
);
