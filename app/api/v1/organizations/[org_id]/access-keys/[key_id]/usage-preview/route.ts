import { withMember } from "@/lib/http/member";
import { keyUsagePreview } from "@/lib/keys/service";
import * as contract from "./contract";

export const GET = withMember(contract.GET, async ({ organizationId, params }) =>
  keyUsagePreview({ organizationId, keyId: String(params.key_id) }),
);
