import { SessionParams } from "@/lib/conversations/schemas";
import { getSession } from "@/lib/conversations/sessions";
import { withAccessKey } from "@/lib/http/handler";

export const GET = withAccessKey({ params: SessionParams }, ({ agent, params }) =>
  getSession({ agent, sessionId: params.session_id }),
);
