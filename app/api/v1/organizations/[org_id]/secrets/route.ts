import { withUserToken } from "@/lib/http/handler";
import { listSecretsRoute } from "@/lib/http/secret-routes";

export const GET = listSecretsRoute(withUserToken);
