import { CONSOLE_WRITE_ERRORS } from "@/lib/openapi/parts";
import { z } from "zod";
import { route } from "@/lib/http/contract";

/** Every session of the user ended (lib/http/sign-in.ts signOutEverywhere). */
const SignedOutEverywhere = z.strictObject({ signed_out: z.literal(true), everywhere: z.literal(true) });

export const POST = route({
  method: "POST",
  path: "/api/console/auth/sign-out-everywhere",
  auth: "console",
  responses: { 200: SignedOutEverywhere },
  errors: [...CONSOLE_WRITE_ERRORS],
});
