import { withConsole } from "@/lib/http/console";
import { waitForChanges } from "@/lib/reviews/changes";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, user, query: { session_id, ...query }, req }) =>
  waitForChanges({ organizationId, userId: user.userId, ...query, sessionId: session_id, signal: req.signal }),
);
