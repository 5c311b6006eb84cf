import { sendTestAlert } from "@/lib/alerts/service";
import { Reply, withUserToken } from "@/lib/http/handler";
import * as contract from "./contract";

export const POST = withUserToken(
  contract.POST,
  async ({ organizationId, params }) => new Reply(await sendTestAlert({ organizationId, ruleId: params.rule_id }), 202),
);
