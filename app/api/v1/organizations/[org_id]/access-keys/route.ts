import { HttpAnswer } from "@/lib/http/handler";
import { withMember } from "@/lib/http/member";
import { defaultRateLimitPerMinute } from "@/lib/keys/rate-limit";
import { listKeyPage, mintKey } from "@/lib/keys/service";
import * as contract from "./contract";

export const POST = withMember(
  contract.POST,
  async ({ organizationId, actor, body }) => new HttpAnswer(await mintKey({ organizationId, input: body, actor }), 201),
);

export const GET = withMember(contract.GET, async ({ organizationId, query }) => {
  const page = await listKeyPage({ organizationId, ...query });
  return { ...page, default_rate_limit_per_minute: defaultRateLimitPerMinute() };
});
