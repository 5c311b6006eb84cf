import { withAccessKey } from "@/lib/http/handler";
import { triggerWorkflow } from "@/lib/runs/trigger";

export const POST = withAccessKey({}, ({ req, key, agent, requestId }) =>
  triggerWorkflow({ req, key, agent, requestId }),
);
