import { withUserToken } from "@/lib/http/handler";
import { keyUsagePreview } from "@/lib/keys/service";
import * as contract from "./contract";

export const GET = withUserToken(contract.GET, async ({ organizationId, params }) =>
  keyUsagePreview({ organizationId, keyId: String(params.key_id) }),
);
