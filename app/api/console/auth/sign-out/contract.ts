import { z } from "zod";
import { route } from "@/lib/http/contract";

/** Signed out here (also when no session was live: lib/http/sign-in.ts signOutHere). */
const SignedOut = z.strictObject({ signed_out: z.literal(true) });

export const POST = route({
  method: "POST",
  path: "/api/console/auth/sign-out",
  auth: "consoleOpen",
  responses: { 200: SignedOut },
  errors: ["invalid_request", "cross_site_request"],
});
