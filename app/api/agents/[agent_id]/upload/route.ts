// Streams the multipart body straight to storage: no proxy/middleware may ever match this path,
// since Next buffers bodies there (STACK-NOTES).
import { uploadFile } from "@/lib/files/upload";
import { withAccessKey } from "@/lib/http/handler";

export const POST = withAccessKey({}, ({ req, key, agent, requestId }) =>
  uploadFile({ req, organizationId: key.organizationId, agentId: agent.id, requestId }),
);
