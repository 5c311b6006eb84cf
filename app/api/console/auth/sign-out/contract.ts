import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/auth/sign-out",
  auth: "consoleOpen",
});
