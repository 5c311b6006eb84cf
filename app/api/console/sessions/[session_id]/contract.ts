import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/sessions/[session_id]",
  auth: "console",
});
