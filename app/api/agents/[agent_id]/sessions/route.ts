import { ListSessionsQuery } from "@/lib/conversations/schemas";
import { listSessions } from "@/lib/conversations/sessions";
import { withAccessKey } from "@/lib/http/handler";

export const GET = withAccessKey({ query: ListSessionsQuery }, ({ agent, query }) => listSessions({ agent, query }));
