import type { KeyPrincipal } from "../auth/access-keys";
import { ApiError } from "../errors";
import type { Agent } from "../generated/prisma/client";
import type { Reply } from "../http/handler";

/** Placeholder: the workflow trigger (issue 4). */
export async function triggerRun(_opts: {
  req: Request;
  key: KeyPrincipal;
  agent: Agent;
  requestId: string;
  body: Record<string, unknown>;
  triggerType: string;
}): Promise<Reply> {
  throw new ApiError("internal_error", "Workflow triggers are not implemented yet.");
}
