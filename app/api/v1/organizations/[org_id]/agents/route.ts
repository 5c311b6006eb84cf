import { CreateAgentBody } from "@/lib/agents/schemas";
import { createAgent, listAgents } from "@/lib/agents/service";
import { Reply, withUserToken } from "@/lib/http/handler";

export const POST = withUserToken(
  { body: CreateAgentBody, admin: true },
  async ({ organizationId, actor, body }) => new Reply(await createAgent({ organizationId, input: body, actor }), 201),
);

export const GET = withUserToken({}, async ({ organizationId }) => ({ agents: await listAgents({ organizationId }) }));
