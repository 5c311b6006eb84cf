import { withMember } from "@/lib/http/member";
import { claimReview } from "@/lib/reviews/service";
import * as contract from "./contract";

export const POST = withMember(contract.POST, ({ organizationId, user, actor, params, body }) =>
  claimReview({
    organizationId,
    exceptionId: params.exception_id,
    user: { userId: user.userId, label: user.name || user.email },
    takeOver: body.take_over,
    actor,
  }),
);
