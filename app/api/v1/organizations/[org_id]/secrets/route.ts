import { withUserToken } from "@/lib/http/handler";
import { listSecretPage } from "@/lib/secrets/service";
import * as contract from "./contract";

export const GET = withUserToken(contract.GET, ({ organizationId, query }) =>
  listSecretPage({ organizationId, ...query }),
);
