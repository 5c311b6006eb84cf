// Console pages check the session on the server, each for itself (layouts are not re-run on
// every navigation): signed out, a page redirects to /login and comes back after sign-in.
import { redirect } from "next/navigation";
import { currentConsoleUser, type ConsoleUser } from "@/lib/http/console";

export async function requireConsolePage(path: string): Promise<ConsoleUser> {
  const user = await currentConsoleUser();
  if (!user) redirect(`/login?next=${encodeURIComponent(path)}`);
  return user;
}

/** What the browser may know about the signed-in user (no ids it cannot already see). */
export function consoleMe(user: ConsoleUser) {
  return {
    email: user.email,
    name: user.name,
    role: user.role,
    organization: { organization_id: user.organizationId, name: user.organizationName },
    organizations: user.organizations,
  };
}
