// Accepting an invitation from its link: signed in, or signed out creating the account and then
// signing in through the console's own sign-in path (lockout and audit included).
import { isApiError } from "@/lib/errors";
import { clientIp, signedInPerson } from "@/lib/http/console";
import { chooseOrganization } from "@/lib/http/org-cookie";
import { signInWithPassword } from "@/lib/http/sign-in";
import { log } from "@/lib/log";
import { acceptInvitation } from "@/lib/orgs/invitations";
import type { AcceptInvitationBody } from "@/lib/orgs/schemas";

export async function acceptFromLink(opts: { req: Request; body: AcceptInvitationBody }) {
  const { req, body } = opts;
  const ip = clientIp(req);
  const user = await signedInPerson();
  const accepted = await acceptInvitation({ ...body, ip, user });
  let signedIn = Boolean(user);
  if (!user && body.password) {
    try {
      await signInWithPassword({ email: accepted.member.email, password: body.password });
      signedIn = true;
    } catch (e) {
      // The account and membership are made: say so, and let the person sign in on the login page.
      if (!isApiError(e)) throw e;
      log.warn({ code: e.code }, "sign-in after accepting an invitation failed");
    }
  }
  // The console opens in the organization just joined.
  if (signedIn) await chooseOrganization(accepted.organization.organization_id, req);
  return { ...accepted, signed_in: signedIn };
}
