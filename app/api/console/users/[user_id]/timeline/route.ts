import { withConsole } from "@/lib/http/console";
import { userTimeline } from "@/lib/search/timeline";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, params, query }) =>
  userTimeline({ organizationId, userId: params.user_id, ...query }),
);
