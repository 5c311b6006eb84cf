import { redeliver } from "@/lib/callbacks/service";
import { withConsole } from "@/lib/http/console";
import { Reply } from "@/lib/http/handler";
import * as contract from "./contract";

export const POST = withConsole(
  contract.POST,
  async ({ organizationId, actor, params }) =>
    new Reply(await redeliver(organizationId, params.delivery_id, actor), 202),
);
