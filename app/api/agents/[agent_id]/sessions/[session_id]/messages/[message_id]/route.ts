import { MessageParams } from "@/lib/conversations/schemas";
import { getMessage } from "@/lib/conversations/sessions";
import { Reply, withAccessKey } from "@/lib/http/handler";
import { longPoll } from "@/lib/http/prefer";

// `Prefer: wait=N` (N <= 30): a reply still processing is answered as soon as it ends.
export const GET = withAccessKey({ params: MessageParams }, async ({ req, agent, params }) => {
  const { waitMs, applied } = longPoll(req);
  const message = await getMessage({ agent, sessionId: params.session_id, messageId: params.message_id, waitMs });
  return new Reply(message, 200, applied);
});
