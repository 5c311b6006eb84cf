import { MessageParams } from "@/lib/conversations/schemas";
import { getMessage } from "@/lib/conversations/sessions";
import { withAccessKey } from "@/lib/http/handler";

export const GET = withAccessKey({ params: MessageParams }, ({ agent, params }) =>
  getMessage({ agent, sessionId: params.session_id, messageId: params.message_id }),
);
