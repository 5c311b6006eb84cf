import { withAccessKey } from "@/lib/http/handler";
import { triggerAgent } from "@/lib/triggers";

export const POST = withAccessKey({}, ({ req, key, agent, requestId }) => triggerAgent({ req, key, agent, requestId }));
