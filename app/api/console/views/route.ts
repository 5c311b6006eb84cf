import { withConsole } from "@/lib/http/console";
import { Reply } from "@/lib/http/handler";
import { createView, listViews } from "@/lib/views/service";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, user, role, actor, query }) =>
  listViews({ organizationId, userId: user.userId, role, actor }, query),
);

export const POST = withConsole(
  contract.POST,
  async ({ organizationId, user, role, actor, body }) =>
    new Reply(await createView({ organizationId, userId: user.userId, role, actor }, body), 201),
);
