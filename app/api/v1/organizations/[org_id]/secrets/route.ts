import { withMember } from "@/lib/http/member";
import { listSecretPage } from "@/lib/secrets/service";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, query }) =>
  listSecretPage({ organizationId, ...query }),
);
