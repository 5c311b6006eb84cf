import { withMember } from "@/lib/http/member";
import { decideReview } from "@/lib/reviews/service";
import * as contract from "./contract";

export const POST = withMember(contract.POST, ({ organizationId, user, actor, params, body, baseUrl }) =>
  decideReview({
    organizationId,
    exceptionId: params.exception_id,
    resolution: body.resolution,
    modifiedData: body.modified_data,
    reason: body.reason,
    takeOver: body.take_over,
    userId: user.userId,
    actor,
    baseUrl,
  }),
);
