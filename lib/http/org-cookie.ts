// The organization the console works in: a cookie, checked against the user's memberships on
// every request (lib/http/console.ts currentConsoleUser).
import { cookies } from "next/headers";
import { ORG_COOKIE } from "./console";

export async function chooseOrganization(organizationId: string, req: Request) {
  (await cookies()).set(ORG_COOKIE, organizationId, {
    httpOnly: true,
    sameSite: "lax",
    secure: new URL(req.url).protocol === "https:",
    path: "/",
  });
}
