import { withConsole } from "@/lib/http/console";
import { getKey, revokeKey, updateKey } from "@/lib/keys/service";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, params }) =>
  getKey({ organizationId, keyId: String(params.key_id) }),
);

export const PATCH = withConsole(contract.PATCH, ({ organizationId, actor, params, body }) =>
  updateKey({ organizationId, keyId: String(params.key_id), input: body, actor }),
);

export const DELETE = withConsole(contract.DELETE, ({ organizationId, actor, params }) =>
  revokeKey({ organizationId, keyId: String(params.key_id), actor }),
);
