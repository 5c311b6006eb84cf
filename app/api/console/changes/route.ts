import { withConsole } from "@/lib/http/console";
import { waitForChanges } from "@/lib/reviews/changes";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, user, query, req }) =>
  waitForChanges({ organizationId, userId: user.userId, ...query, signal: req.signal }),
);
