import { Reply, withUserToken } from "@/lib/http/handler";
import { MintKeyBody } from "@/lib/keys/schemas";
import { defaultRateLimitPerMinute } from "@/lib/keys/rate-limit";
import { listKeys, mintKey } from "@/lib/keys/service";

export const POST = withUserToken(
  { body: MintKeyBody, admin: true },
  async ({ organizationId, actor, body }) => new Reply(await mintKey({ organizationId, input: body, actor }), 201),
);

export const GET = withUserToken({}, async ({ organizationId }) => ({
  access_keys: await listKeys({ organizationId }),
  default_rate_limit_per_minute: defaultRateLimitPerMinute(),
}));
