import { withConsole } from "@/lib/http/console";
import { Reply } from "@/lib/http/handler";
import { defaultRateLimitPerMinute } from "@/lib/keys/rate-limit";
import { listKeys, mintKey } from "@/lib/keys/service";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, async ({ organizationId }) => ({
  access_keys: await listKeys({ organizationId }),
  default_rate_limit_per_minute: defaultRateLimitPerMinute(),
}));

export const POST = withConsole(
  contract.POST,
  async ({ organizationId, actor, body }) => new Reply(await mintKey({ organizationId, input: body, actor }), 201),
);
