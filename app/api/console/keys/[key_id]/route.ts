import { withConsole } from "@/lib/http/console";
import { revokeKey } from "@/lib/keys/service";

export const DELETE = withConsole({ admin: true }, ({ organizationId, actor, params }) =>
  revokeKey({ organizationId, keyId: String(params.key_id), actor }),
);
