import { z } from "zod";
import { JsonObject } from "@/lib/validate";
import { route } from "@/lib/http/contract";

const StartRunBody = z.strictObject({ inputs: JsonObject });

export const POST = route({
  method: "POST",
  path: "/api/console/agents/[agent_id]/runs",
  auth: "console",
  body: StartRunBody,
});
