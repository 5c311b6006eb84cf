import { AgentListQuery, CreateAgentBody } from "@/lib/agents/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/agents",
  auth: "console",
  query: AgentListQuery,
});

export const POST = route({
  method: "POST",
  path: "/api/console/agents",
  auth: "console",
  body: CreateAgentBody,
  admin: true,
});
