import { withConsole } from "@/lib/http/console";
import { revokeKey } from "@/lib/keys/service";
import * as contract from "./contract";

export const DELETE = withConsole(contract.DELETE, ({ organizationId, actor, params }) =>
  revokeKey({ organizationId, keyId: String(params.key_id), actor }),
);
