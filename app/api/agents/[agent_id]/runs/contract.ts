import * as ex from "@/lib/openapi/examples";
import { header } from "@/lib/openapi/builder";
import { KEY_ERRORS } from "@/lib/openapi/parts";
import { ListRunsQuery, NEXT_CURSOR_HEADER, RunList } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";
import { AgentParams } from "@/lib/validate";

export const GET = route({
  method: "GET",
  path: "/api/agents/[agent_id]/runs",
  auth: "accessKey",
  params: AgentParams,
  query: ListRunsQuery,
  responses: { 200: RunList },
  errors: [...KEY_ERRORS, "invalid_request", "invalid_status", "runtime_not_applicable"],
  openapi: () => ({
    operationId: "listRuns",
    summary: "List runs",
    tag: "Workflow runs",
    description:
      "A bare JSON array of the agent's runs, newest first, without `output_files` and `events`. When more " +
      "runs follow, the `Next-Cursor` header carries the cursor of the next page (pass it as `cursor`).",
    responses: {
      "200": {
        description: "The runs.",
        examples: { runs: { summary: "One run", value: [ex.runListItem] } },
        headers: {
          [NEXT_CURSOR_HEADER]: header(
            "The cursor of the next page (pass it as `cursor` with the same `status`); absent on the last page.",
          ),
        },
      },
    },
  }),
});
