// Invitations over HTTP: accepting one from its link (signed in, or signed out creating the
// account and then signing in through the console's own sign-in path, lockout and audit included),
// and what the invitation page shows.
import { headers } from "next/headers";
import { isApiError } from "../errors";
import { log } from "../log";
import { acceptInvitation, invitationByToken } from "../orgs/invitations";
import type { AcceptInvitationBody } from "../orgs/schemas";
import { clientIp, signedInPerson } from "./console";
import { chooseOrganization } from "./org-cookie";
import { signInWithPassword } from "./sign-in";

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

/** The invitation page's data: the invitation (or the error a link gets) and who is signed in. */
export async function invitationPage(token: string) {
  const ip = clientIp({ headers: await headers() });
  const user = await signedInPerson();
  try {
    return { invitation: await invitationByToken({ token, ip }), user, error: null };
  } catch (e) {
    if (!isApiError(e)) throw e;
    return { invitation: null, user, error: { code: e.code, message: e.message } };
  }
}
