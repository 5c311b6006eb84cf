import { sendTestAlert } from "@/lib/alerts/service";
import { HttpAnswer } from "@/lib/http/handler";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const POST = withMember(
  contract.POST,
  async ({ organizationId, params }) =>
    new HttpAnswer(await sendTestAlert({ organizationId, ruleId: params.rule_id }), 202),
);
