import { SignInFields } from "@/lib/auth/sign-in";
import { z } from "zod";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/auth/sign-in",
  auth: "consoleOpen",
  body: z.strictObject(SignInFields.shape),
});
