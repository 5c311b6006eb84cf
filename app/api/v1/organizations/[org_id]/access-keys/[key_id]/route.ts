import { withUserToken } from "@/lib/http/handler";
import { revokeKey } from "@/lib/keys/service";
import * as contract from "./contract";

export const DELETE = withUserToken(contract.DELETE, async ({ organizationId, actor, params }) =>
  revokeKey({ organizationId, keyId: String(params.key_id), actor }),
);
