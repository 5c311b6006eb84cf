// POST /api/agents/webhook/{agent_id}: one JSON object body (1 MiB), Idempotency-Key replays,
// then the agent kind decides: a conversational message or a workflow run.
import type { KeyPrincipal } from "./auth/access-keys";
import type { Agent } from "./generated/prisma/client";
import { ApiError } from "./errors";
import { readJson } from "./http/body";
import type { Reply } from "./http/handler";
import { idempotent } from "./idempotency";
import { triggerConversation } from "./conversations/trigger";
import { triggerRun } from "./runs/trigger";

export async function triggerAgent(opts: { req: Request; key: KeyPrincipal; agent: Agent; requestId: string }) {
  const body = await readJson(opts.req);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ApiError("invalid_request", "The request body must be a JSON object.", {
      fields: [{ field: "(root)", message: "expected a JSON object" }],
    });
  }
  const input = body as Record<string, unknown>;
  return idempotent(
    {
      req: opts.req,
      organizationId: opts.key.organizationId,
      scope: `trigger:${opts.agent.id}`,
      body: input,
      requestId: opts.requestId,
    },
    (): Promise<Reply> =>
      opts.agent.kind === "conversational"
        ? triggerConversation({ ...opts, body: input })
        : triggerRun({ ...opts, body: input, triggerType: "event" }),
  );
}
