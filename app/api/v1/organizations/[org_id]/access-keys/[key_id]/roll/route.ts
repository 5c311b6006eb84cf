import { HttpAnswer } from "@/lib/http/handler";
import { withMember } from "@/lib/http/member";
import { rollKey } from "@/lib/keys/service";
import * as contract from "./contract";

export const POST = withMember(
  contract.POST,
  async ({ organizationId, actor, params, body }) =>
    new HttpAnswer(await rollKey({ organizationId, keyId: String(params.key_id), input: body, actor }), 201),
);
