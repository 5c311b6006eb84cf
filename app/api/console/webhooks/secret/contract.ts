import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/webhooks/secret",
  auth: "console",
});

export const POST = route({
  method: "POST",
  path: "/api/console/webhooks/secret",
  auth: "console",
  admin: true,
});
