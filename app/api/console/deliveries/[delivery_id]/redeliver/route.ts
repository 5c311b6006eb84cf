import { DeliveryParams } from "@/lib/callbacks/schemas";
import { redeliver } from "@/lib/callbacks/service";
import { withConsole } from "@/lib/http/console";
import { Reply } from "@/lib/http/handler";

export const POST = withConsole(
  { params: DeliveryParams, admin: true },
  async ({ organizationId, actor, params }) =>
    new Reply(await redeliver(organizationId, params.delivery_id, actor), 202),
);
