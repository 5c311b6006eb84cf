// Streams the multipart body straight to storage: no proxy/middleware may ever match this path,
// since Next buffers bodies there (docs/decisions.md).
import { assertNotArchived } from "@/lib/agents/service";
import { uploadFile } from "@/lib/files/upload";
import { withAccessKey } from "@/lib/http/handler";
import * as contract from "./contract";

export const POST = withAccessKey(contract.POST, async ({ req, key, agent, requestId }) => {
  assertNotArchived(agent); // an archived agent takes no new files (before any of the body is read)
  return uploadFile({ req, organizationId: key.organizationId, agentId: agent.id, requestId });
});
