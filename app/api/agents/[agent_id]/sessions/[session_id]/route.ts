import { getSession } from "@/lib/conversations/sessions";
import { withAccessKey } from "@/lib/http/handler";
import * as contract from "./contract";

export const GET = withAccessKey(contract.GET, ({ agent, params }) =>
  getSession({ agent, sessionId: params.session_id }),
);
