import { withConsole } from "@/lib/http/console";
import { Reply } from "@/lib/http/handler";
import { rollKey } from "@/lib/keys/service";
import * as contract from "./contract";

export const POST = withConsole(
  contract.POST,
  async ({ organizationId, actor, params, body }) =>
    new Reply(await rollKey({ organizationId, keyId: String(params.key_id), input: body, actor }), 201),
);
