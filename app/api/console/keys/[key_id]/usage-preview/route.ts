import { withConsole } from "@/lib/http/console";
import { keyUsagePreview } from "@/lib/keys/service";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, params }) =>
  keyUsagePreview({ organizationId, keyId: String(params.key_id) }),
);
