import { listBulkActions, startBulkAction } from "@/lib/bulk/service";
import { withMember } from "@/lib/http/member";
import { HttpAnswer } from "@/lib/http/handler";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, query }) =>
  listBulkActions({ organizationId, ...query }),
);

export const POST = withMember(
  contract.POST,
  async ({ organizationId, role, actor, body, baseUrl }) =>
    new HttpAnswer(await startBulkAction({ organizationId, role, actor, input: body, baseUrl }), 202),
);
