import { withConsole } from "@/lib/http/console";
import { listReviews } from "@/lib/reviews/service";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, query }) =>
  listReviews({ organizationId, agentId: query.agent_id, ...query }),
);
