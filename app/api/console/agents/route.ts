import { AgentListQuery, CreateAgentBody } from "@/lib/agents/schemas";
import { createAgent, listAgentsPage } from "@/lib/agents/service";
import { withConsole } from "@/lib/http/console";
import { Reply } from "@/lib/http/handler";

export const GET = withConsole({ query: AgentListQuery }, ({ organizationId, query }) =>
  listAgentsPage({ organizationId, ...query }),
);

export const POST = withConsole(
  { body: CreateAgentBody, admin: true },
  async ({ organizationId, actor, body }) => new Reply(await createAgent({ organizationId, input: body, actor }), 201),
);
