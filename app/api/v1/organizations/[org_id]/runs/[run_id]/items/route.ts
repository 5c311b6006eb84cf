import { withMember } from "@/lib/http/member";
import { listRunItems } from "@/lib/runs/service";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, params, query }) =>
  listRunItems({ organizationId, runId: params.run_id, ...query }),
);
