import { listAlertEvents } from "@/lib/alerts/service";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, query }) =>
  listAlertEvents({ organizationId, ...query }),
);
