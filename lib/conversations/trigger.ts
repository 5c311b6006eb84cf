import type { KeyPrincipal } from "../auth/access-keys";
import { ApiError } from "../errors";
import type { Agent } from "../generated/prisma/client";
import type { Reply } from "../http/handler";

/** Placeholder: the conversational trigger (issue 3). */
export async function triggerConversation(_opts: {
  req: Request;
  key: KeyPrincipal;
  agent: Agent;
  requestId: string;
  body: Record<string, unknown>;
}): Promise<Reply> {
  throw new ApiError("internal_error", "Conversational triggers are not implemented yet.");
}
