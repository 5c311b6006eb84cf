// Signed in or signed out (the invited person may have no account yet): same-origin only.
import { withConsolePublic } from "@/lib/http/console";
import { acceptFromLink } from "@/lib/http/invitations";
import { AcceptInvitationBody } from "@/lib/orgs/schemas";

export const POST = withConsolePublic({ body: AcceptInvitationBody }, ({ req, body }) => acceptFromLink({ req, body }));
