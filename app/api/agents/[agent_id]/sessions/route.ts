import { listSessions } from "@/lib/conversations/sessions";
import { withAccessKey } from "@/lib/http/handler";
import * as contract from "./contract";

export const GET = withAccessKey(contract.GET, ({ agent, query }) => listSessions({ agent, query }));
