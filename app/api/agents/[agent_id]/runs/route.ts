import { withAccessKey } from "@/lib/http/handler";
import { listRuns } from "@/lib/runs/service";
import * as contract from "./contract";

export const GET = withAccessKey(contract.GET, ({ agent, query }) =>
  listRuns({ agent, limit: query.limit, status: query.status }),
);
