import { ConsoleRunParams } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/runs/[run_id]/cancel",
  auth: "console",
  params: ConsoleRunParams,
});
