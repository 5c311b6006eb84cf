import { route } from "@/lib/http/contract";

export const DELETE = route({
  method: "DELETE",
  path: "/api/console/keys/[key_id]",
  auth: "console",
  admin: true,
});
