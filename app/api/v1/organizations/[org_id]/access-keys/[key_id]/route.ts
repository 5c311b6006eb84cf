import { withMember } from "@/lib/http/member";
import { getKey, revokeKey, updateKey } from "@/lib/keys/service";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, params }) =>
  getKey({ organizationId, keyId: String(params.key_id) }),
);

export const DELETE = withMember(contract.DELETE, async ({ organizationId, actor, params }) =>
  revokeKey({ organizationId, keyId: String(params.key_id), actor }),
);

export const PATCH = withMember(contract.PATCH, async ({ organizationId, actor, params, body }) =>
  updateKey({ organizationId, keyId: String(params.key_id), input: body, actor }),
);
