// Idempotency-Key replays (Stripe-style). Placeholder until implemented: runs the operation.
import type { Reply } from "./http/handler";

export async function idempotent(
  _opts: { req: Request; organizationId: string; scope: string; body: unknown },
  run: () => Promise<Reply>,
): Promise<Reply | Response> {
  return run();
}
