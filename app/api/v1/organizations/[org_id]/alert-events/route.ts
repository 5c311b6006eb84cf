import { listAlertEvents } from "@/lib/alerts/service";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, query }) =>
  listAlertEvents({ organizationId, ...query }),
);
