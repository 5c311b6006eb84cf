import { MintKeyBody } from "@/lib/keys/schemas";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/keys",
  auth: "console",
});

export const POST = route({
  method: "POST",
  path: "/api/console/keys",
  auth: "console",
  body: MintKeyBody,
  admin: true,
});
