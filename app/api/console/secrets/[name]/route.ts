import { withConsole } from "@/lib/http/console";
import { deleteSecretRoute, setSecretRoute } from "@/lib/http/secret-routes";

export const PUT = setSecretRoute(withConsole);
export const DELETE = deleteSecretRoute(withConsole);
