import { withMember } from "@/lib/http/member";
import { bulkDecide } from "@/lib/reviews/service";
import * as contract from "./contract";

export const POST = withMember(contract.POST, ({ organizationId, user, actor, body, baseUrl }) =>
  bulkDecide({
    organizationId,
    exceptionIds: body.exception_ids,
    resolution: body.resolution,
    reason: body.reason,
    takeOver: body.take_over,
    userId: user.userId,
    actor,
    baseUrl,
  }),
);
