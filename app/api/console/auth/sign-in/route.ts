import { z } from "zod";
import { clientIp, withConsolePublic } from "@/lib/http/console";
import { signInWithPassword } from "@/lib/http/sign-in";

const SignInBody = z.strictObject({
  email: z.string().trim().min(1, "is required").max(320),
  password: z.string().min(1, "is required").max(200),
});

export const POST = withConsolePublic({ body: SignInBody }, ({ req, body }) =>
  signInWithPassword({ ...body, ip: clientIp(req) }),
);
