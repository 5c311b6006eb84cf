import { withUserToken } from "@/lib/http/handler";
import { revokeKey, updateKey } from "@/lib/keys/service";
import * as contract from "./contract";

export const DELETE = withUserToken(contract.DELETE, async ({ organizationId, actor, params }) =>
  revokeKey({ organizationId, keyId: String(params.key_id), actor }),
);

export const PATCH = withUserToken(contract.PATCH, async ({ organizationId, actor, params, body }) =>
  updateKey({ organizationId, keyId: String(params.key_id), input: body, actor }),
);
