import { redeliver } from "@/lib/callbacks/service";
import { withMember } from "@/lib/http/member";
import { HttpAnswer } from "@/lib/http/handler";
import * as contract from "./contract";

export const POST = withMember(
  contract.POST,
  async ({ organizationId, actor, params }) =>
    new HttpAnswer(await redeliver(organizationId, params.delivery_id, actor), 202),
);
