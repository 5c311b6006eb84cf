import { withUserToken } from "@/lib/http/handler";
import { deleteSecretRoute, setSecretRoute } from "@/lib/http/secret-routes";

export const PUT = setSecretRoute(withUserToken);
export const DELETE = deleteSecretRoute(withUserToken);
