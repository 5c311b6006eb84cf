import { withConsole } from "@/lib/http/console";
import { listSecretsRoute } from "@/lib/http/secret-routes";

export const GET = listSecretsRoute(withConsole);
