import { UpdateAgentBody } from "@/lib/agents/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/agents/[agent_id]",
  auth: "console",
});

export const PATCH = route({
  method: "PATCH",
  path: "/api/console/agents/[agent_id]",
  auth: "console",
  body: UpdateAgentBody,
  admin: true,
});

export const DELETE = route({
  method: "DELETE",
  path: "/api/console/agents/[agent_id]",
  auth: "console",
  admin: true,
});
