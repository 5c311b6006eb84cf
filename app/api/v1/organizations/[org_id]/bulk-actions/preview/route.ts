import { previewBulkAction } from "@/lib/bulk/service";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const POST = withMember(contract.POST, ({ organizationId, role, body }) =>
  previewBulkAction({ organizationId, role, input: body }),
);
