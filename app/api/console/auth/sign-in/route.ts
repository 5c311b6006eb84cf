import { z } from "zod";
import { SignInFields } from "@/lib/auth/sign-in";
import { withConsolePublic } from "@/lib/http/console";
import { signInWithPassword } from "@/lib/http/sign-in";

// The client's address is not an argument: the credentials provider reads it from the request
// (lib/http/client-ip.ts), the same way for this route and for Auth.js's own endpoint.
export const POST = withConsolePublic({ body: z.strictObject(SignInFields.shape) }, ({ body }) =>
  signInWithPassword(body),
);
