import { withAccessKey } from "@/lib/http/handler";
import { ListRunsQuery } from "@/lib/runs/schemas";
import { listRuns } from "@/lib/runs/service";

export const GET = withAccessKey({ query: ListRunsQuery }, ({ agent, query }) =>
  listRuns({ agent, limit: query.limit, status: query.status }),
);
