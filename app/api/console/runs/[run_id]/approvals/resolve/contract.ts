import { ConsoleRunParams, ResolveBody } from "@/lib/runs/schemas";
import { route } from "@/lib/http/contract";

export const POST = route({
  method: "POST",
  path: "/api/console/runs/[run_id]/approvals/resolve",
  auth: "console",
  params: ConsoleRunParams,
  body: ResolveBody,
});
