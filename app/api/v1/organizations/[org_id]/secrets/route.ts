import { withUserToken } from "@/lib/http/handler";
import { listSecretsRoute } from "@/lib/http/secret-routes";
import * as contract from "./contract";

export const GET = listSecretsRoute(withUserToken, contract.GET);
