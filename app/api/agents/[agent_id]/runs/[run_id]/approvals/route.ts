import { withAccessKey } from "@/lib/http/handler";
import { listApprovals } from "@/lib/runs/approvals";
import { RunParams } from "@/lib/runs/schemas";

export const GET = withAccessKey({ params: RunParams }, ({ agent, params }) =>
  listApprovals({ agent, runId: params.run_id }),
);
