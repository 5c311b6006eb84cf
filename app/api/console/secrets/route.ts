import { withConsole } from "@/lib/http/console";
import { listSecretsRoute } from "@/lib/http/secret-routes";
import * as contract from "./contract";

export const GET = listSecretsRoute(withConsole, contract.GET);
