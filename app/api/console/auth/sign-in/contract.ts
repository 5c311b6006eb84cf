import { SignInFields } from "@/lib/auth/sign-in";
import { z } from "zod";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";

/** The session cookie is set (lib/http/sign-in.ts signInWithPassword). */
const SignedIn = z.strictObject({ signed_in: z.literal(true) });

export const POST = route({
  method: "POST",
  path: "/api/console/auth/sign-in",
  auth: "consoleOpen",
  responses: { 200: SignedIn },
  errors: ["cross_site_request", ...JSON_BODY_ERRORS, "invalid_credentials", "rate_limited"],
  body: z.strictObject(SignInFields.shape),
});
