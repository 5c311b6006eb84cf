import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/secrets",
  auth: "console",
  admin: true,
});
