import { withAccessKey } from "@/lib/http/handler";
import { listApprovals } from "@/lib/runs/approvals";
import * as contract from "./contract";

export const GET = withAccessKey(contract.GET, ({ agent, params, query }) =>
  listApprovals({ agent, runId: params.run_id, status: query.status }),
);
