import { withUserToken } from "@/lib/http/handler";
import { deleteSecretRoute, setSecretRoute } from "@/lib/http/secret-routes";
import * as contract from "./contract";

export const PUT = setSecretRoute(withUserToken, contract.PUT);
export const DELETE = deleteSecretRoute(withUserToken, contract.DELETE);
