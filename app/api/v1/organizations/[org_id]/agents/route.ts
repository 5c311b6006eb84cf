import { createAgent, listAgents } from "@/lib/agents/service";
import { Reply, withUserToken } from "@/lib/http/handler";
import * as contract from "./contract";

export const POST = withUserToken(
  contract.POST,
  async ({ organizationId, actor, body }) => new Reply(await createAgent({ organizationId, input: body, actor }), 201),
);

export const GET = withUserToken(contract.GET, ({ organizationId, query }) =>
  listAgents({ organizationId, includeArchived: query.include_archived, limit: query.limit, cursor: query.cursor }),
);
