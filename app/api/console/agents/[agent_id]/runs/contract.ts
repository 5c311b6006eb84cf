import { z } from "zod";
import { JsonObject } from "@/lib/validate";
import { RunAccepted } from "@/lib/runs/schemas";
import { CONSOLE_START_ERRORS, CONSOLE_WRITE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

/** The test console's run: its inputs, and the version to try (the draft too: docs/console.md, Versions). */
const StartRunBody = z.strictObject({ inputs: JsonObject, agent_version: z.unknown().optional() });

export const POST = route({
  method: "POST",
  path: "/api/console/agents/[agent_id]/runs",
  auth: "console",
  responses: { 201: RunAccepted },
  errors: [...CONSOLE_WRITE_ERRORS, ...JSON_BODY_ERRORS, ...CONSOLE_START_ERRORS, "invalid_agent_version"],
  body: StartRunBody,
});
