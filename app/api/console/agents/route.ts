import { createAgent, listAgents } from "@/lib/agents/service";
import { withConsole } from "@/lib/http/console";
import { Reply } from "@/lib/http/handler";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, query }) =>
  listAgents({ organizationId, includeArchived: true, ...query }),
);

export const POST = withConsole(
  contract.POST,
  async ({ organizationId, actor, body }) => new Reply(await createAgent({ organizationId, input: body, actor }), 201),
);
