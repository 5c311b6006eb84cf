import { listAlertEvents } from "@/lib/alerts/service";
import { withUserToken } from "@/lib/http/handler";
import * as contract from "./contract";

export const GET = withUserToken(contract.GET, ({ organizationId, query }) =>
  listAlertEvents({ organizationId, ...query }),
);
