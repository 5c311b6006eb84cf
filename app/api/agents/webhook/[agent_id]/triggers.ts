// The HTTP answers of the trigger routes: the services return plain data, these choose the status
// and headers (200 or 202, Preference-Applied, Location).
import type { AgentRow } from "@/lib/agents/service";
import { converseStream } from "@/lib/conversations/stream";
import { acceptMessage, converse } from "@/lib/conversations/trigger";
import { isApiError } from "@/lib/errors";
import { createRun, takeTriggerFields } from "@/lib/workflow/trigger";
import type { KeyCtx } from "@/lib/http/handler";
import { parsePrefer } from "@/lib/http/prefer";
import { HttpAnswer } from "@/lib/http/respond";
import { EventStreamAnswer, wantsEventStream } from "@/lib/http/sse";

type TriggerCtx = KeyCtx<unknown, unknown, Record<string, unknown>>;

/**
 * A conversational trigger: sync by default (200 with the reply), `Prefer: respond-async` gives 202,
 * `Accept: text/event-stream` streams the reply (it wins over respond-async; `wait=N` still bounds it).
 */
export async function conversationTrigger({ req, agent, body, baseUrl, key }: TriggerCtx): Promise<HttpAnswer> {
  const accessKeyId = key.keyId;
  const prefer = parsePrefer(req.headers.get("prefer"));
  if (wantsEventStream(req)) {
    const waitMs = prefer.waitSeconds !== undefined ? prefer.waitSeconds * 1000 : undefined;
    const stream = await converseStream({ agent, body, baseUrl, waitMs, accessKeyId });
    return new EventStreamAnswer(
      stream.events,
      stream.outcome.then((final) => (isApiError(final) ? final : new HttpAnswer(final))),
      // Where the reply can be followed again (e.g. after a disconnect), as for respond-async.
      { location: messagePath(agent, stream.sessionId, stream.messageId) },
    );
  }
  if (prefer.respondAsync) {
    const accepted = await acceptMessage({ agent, body, baseUrl, accessKeyId });
    return new HttpAnswer(accepted, 202, {
      "preference-applied": "respond-async",
      location: messagePath(agent, accepted.session_id, accepted.message_id),
    });
  }
  const waitMs = prefer.waitSeconds !== undefined ? prefer.waitSeconds * 1000 : undefined;
  return new HttpAnswer(await converse({ agent, body, baseUrl, waitMs, accessKeyId }));
}

/** A workflow trigger: the run is created pending and runs in the background. */
export async function runTrigger(
  { agent, actor, baseUrl, body }: TriggerCtx,
  inputs: Record<string, unknown>,
  answer: (runId: string, agentVersion: number) => unknown,
  opts: { inputsAreBody?: boolean } = {},
): Promise<HttpAnswer> {
  const chosen = takeTriggerFields(agent, body, inputs, opts.inputsAreBody ?? false);
  const { runId, agentVersion } = await createRun({
    agent,
    inputs: chosen.inputs,
    actor,
    triggerType: "event",
    baseUrl,
    callbackUrl: chosen.callbackUrl,
    agentVersion: chosen.agentVersion,
  });
  return new HttpAnswer(answer(runId, agentVersion), 202);
}

const messagePath = (agent: AgentRow, sessionId: string, messageId: string) =>
  `/api/agents/${agent.id}/sessions/${sessionId}/messages/${messageId}`;
