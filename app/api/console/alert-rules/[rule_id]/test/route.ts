import { sendTestAlert } from "@/lib/alerts/service";
import { withConsole } from "@/lib/http/console";
import { Reply } from "@/lib/http/handler";
import * as contract from "./contract";

export const POST = withConsole(
  contract.POST,
  async ({ organizationId, params }) => new Reply(await sendTestAlert({ organizationId, ruleId: params.rule_id }), 202),
);
