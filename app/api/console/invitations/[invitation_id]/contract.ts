import { route } from "@/lib/http/contract";

export const DELETE = route({
  method: "DELETE",
  path: "/api/console/invitations/[invitation_id]",
  auth: "console",
  admin: true,
});
