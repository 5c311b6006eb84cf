import { createAgent, listAgents } from "@/lib/agents/service";
import { HttpAnswer } from "@/lib/http/handler";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const POST = withMember(
  contract.POST,
  async ({ organizationId, actor, body }) =>
    new HttpAnswer(await createAgent({ organizationId, input: body, actor }), 201),
);

export const GET = withMember(contract.GET, ({ organizationId, query }) =>
  listAgents({ organizationId, includeArchived: query.include_archived, limit: query.limit, cursor: query.cursor }),
);
