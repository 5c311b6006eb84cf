import { withMember } from "@/lib/http/member";
import { userTimeline } from "@/lib/search/timeline";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, params, query }) =>
  userTimeline({ organizationId, userId: params.user_id, ...query }),
);
