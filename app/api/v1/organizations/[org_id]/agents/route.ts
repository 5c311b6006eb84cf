import { CreateAgentBody, ManagementAgentListQuery } from "@/lib/agents/schemas";
import { createAgent, listAgents } from "@/lib/agents/service";
import { Reply, withUserToken } from "@/lib/http/handler";

export const POST = withUserToken(
  { body: CreateAgentBody, admin: true },
  async ({ organizationId, actor, body }) => new Reply(await createAgent({ organizationId, input: body, actor }), 201),
);

export const GET = withUserToken({ query: ManagementAgentListQuery }, async ({ organizationId, query }) => ({
  agents: await listAgents({ organizationId, includeArchived: query.include_archived }),
}));
