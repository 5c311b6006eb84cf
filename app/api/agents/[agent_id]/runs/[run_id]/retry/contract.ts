import { CONTROL_ERRORS, controlDoc } from "@/lib/openapi/parts";
import { ControlQuery, RunParams, RunRecord } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/agents/[agent_id]/runs/[run_id]/retry",
  auth: "accessKey",
  params: RunParams,
  query: ControlQuery,
  responses: { 200: RunRecord },
  errors: CONTROL_ERRORS,
  openapi: () => controlDoc("retry"),
});
