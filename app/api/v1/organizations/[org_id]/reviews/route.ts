import { withMember } from "@/lib/http/member";
import { listReviews } from "@/lib/reviews/service";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, query }) =>
  listReviews({ organizationId, agentId: query.agent_id, ...query }),
);
