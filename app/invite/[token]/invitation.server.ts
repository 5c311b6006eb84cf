// What the invitation page shows: the invitation (or the error a link gets) and who is signed in.
import { headers } from "next/headers";
import { isApiError } from "@/lib/errors";
import { clientIp, signedInPerson } from "@/lib/http/console";
import { invitationByToken } from "@/lib/orgs/invitations";

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
