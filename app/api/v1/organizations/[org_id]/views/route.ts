import { HttpAnswer } from "@/lib/http/handler";
import { withMember } from "@/lib/http/member";
import { createView, listViews } from "@/lib/views/service";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, user, role, actor, query }) =>
  listViews({ organizationId, userId: user.userId, role, actor }, query),
);

export const POST = withMember(
  contract.POST,
  async ({ organizationId, user, role, actor, body }) =>
    new HttpAnswer(await createView({ organizationId, userId: user.userId, role, actor }, body), 201),
);
