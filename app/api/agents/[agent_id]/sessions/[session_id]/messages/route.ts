import { ListMessagesQuery, SessionParams } from "@/lib/conversations/schemas";
import { listMessages } from "@/lib/conversations/sessions";
import { withAccessKey } from "@/lib/http/handler";

export const GET = withAccessKey({ params: SessionParams, query: ListMessagesQuery }, ({ agent, params, query }) =>
  listMessages({ agent, sessionId: params.session_id, query }),
);
