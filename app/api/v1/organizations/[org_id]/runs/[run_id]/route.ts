import { withMember } from "@/lib/http/member";
import { getOrgRun } from "@/lib/runs/service";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, params, baseUrl }) =>
  getOrgRun({ organizationId, runId: params.run_id, baseUrl }),
);
