import { withConsole } from "@/lib/http/console";
import { deleteSecretRoute, setSecretRoute } from "@/lib/http/secret-routes";
import * as contract from "./contract";

export const PUT = setSecretRoute(withConsole, contract.PUT);
export const DELETE = deleteSecretRoute(withConsole, contract.DELETE);
