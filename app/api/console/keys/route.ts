import { withConsole } from "@/lib/http/console";
import { Reply } from "@/lib/http/handler";
import { MintKeyBody } from "@/lib/keys/schemas";
import { defaultRateLimitPerMinute } from "@/lib/keys/rate-limit";
import { listKeys, mintKey } from "@/lib/keys/service";

export const GET = withConsole({}, async ({ organizationId }) => ({
  access_keys: await listKeys({ organizationId }),
  default_rate_limit_per_minute: defaultRateLimitPerMinute(),
}));

export const POST = withConsole(
  { body: MintKeyBody, admin: true },
  async ({ organizationId, actor, body }) => new Reply(await mintKey({ organizationId, input: body, actor }), 201),
);
