import { withAccessKey } from "@/lib/http/handler";
import { RunParams } from "@/lib/runs/schemas";
import { getRun } from "@/lib/runs/service";

export const GET = withAccessKey({ params: RunParams }, ({ agent, params, baseUrl }) =>
  getRun({ agent, runId: params.run_id, baseUrl }),
);
