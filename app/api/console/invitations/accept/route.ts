// Signed in or signed out (the invited person may have no account yet): same-origin only.
import { withConsolePublic } from "@/lib/http/console";
import { acceptFromLink } from "./accept";
import * as contract from "./contract";

export const POST = withConsolePublic(contract.POST, ({ req, body }) => acceptFromLink({ req, body }));
