import { JsonObject } from "@/lib/validate";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/agents/[agent_id]/chat",
  auth: "console",
  body: JsonObject,
});
