import { z } from "zod";
import { JsonObject } from "@/lib/validate";
import { ConsoleRunParams, RunAccepted } from "@/lib/runs/schemas";
import { CONSOLE_START_ERRORS, CONSOLE_WRITE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

const RerunBody = z.strictObject({ inputs: JsonObject });

export const POST = route({
  method: "POST",
  path: "/api/console/runs/[run_id]/rerun",
  auth: "console",
  responses: { 201: RunAccepted },
  errors: [
    ...CONSOLE_WRITE_ERRORS,
    ...JSON_BODY_ERRORS,
    ...CONSOLE_START_ERRORS,
    "run_not_found",
    "invalid_state_transition",
  ],
  params: ConsoleRunParams,
  body: RerunBody,
});
