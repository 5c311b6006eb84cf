import { withUserToken } from "@/lib/http/handler";
import { revokeKey } from "@/lib/keys/service";

export const DELETE = withUserToken({ admin: true }, async ({ organizationId, actor, params }) =>
  revokeKey({ organizationId, keyId: String(params.key_id), actor }),
);
