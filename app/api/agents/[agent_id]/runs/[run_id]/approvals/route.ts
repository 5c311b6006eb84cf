import { withAccessKey } from "@/lib/http/handler";
import { listApprovals } from "@/lib/runs/approvals";
import * as contract from "./contract";

export const GET = withAccessKey(contract.GET, ({ agent, params }) => listApprovals({ agent, runId: params.run_id }));
