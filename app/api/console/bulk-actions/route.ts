import { listBulkActions, startBulkAction } from "@/lib/bulk/service";
import { withConsole } from "@/lib/http/console";
import { Reply } from "@/lib/http/handler";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, query }) =>
  listBulkActions({ organizationId, ...query }),
);

export const POST = withConsole(
  contract.POST,
  async ({ organizationId, role, actor, body, baseUrl }) =>
    new Reply(await startBulkAction({ organizationId, role, actor, input: body, baseUrl }), 202),
);
