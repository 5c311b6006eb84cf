import { getMessage } from "@/lib/conversations/sessions";
import { followMessage } from "@/lib/conversations/stream";
import { HttpAnswer, withAccessKey } from "@/lib/http/handler";
import { longPoll } from "@/lib/http/prefer";
import { EventStreamAnswer, wantsEventStream } from "@/lib/http/sse";
import * as contract from "./contract";

// `Prefer: wait=N` (N <= 30): a reply still processing is answered as soon as it ends.
// `Accept: text/event-stream`: one `message` event when it ends (docs/api.md "Streaming replies").
export const GET = withAccessKey(contract.GET, async ({ req, agent, params }) => {
  const ids = { agent, sessionId: params.session_id, messageId: params.message_id };
  if (wantsEventStream(req)) return new EventStreamAnswer((await followMessage(ids)).events);
  const { waitMs, applied } = longPoll(req);
  const message = await getMessage({ ...ids, waitMs });
  return new HttpAnswer(message, 200, applied);
});
