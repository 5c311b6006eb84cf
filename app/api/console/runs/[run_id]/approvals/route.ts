import { withConsole } from "@/lib/http/console";
import { listApprovals } from "@/lib/runs/approvals";
import { itemIndexes } from "@/lib/runs/indexes";
import { loadOrgRun } from "@/lib/runs/service";
import * as contract from "./contract";

/** The public approvals listing, each with its item's index (the console names items by it). */
export const GET = withConsole(contract.GET, async ({ organizationId, params }) => {
  const run = await loadOrgRun(organizationId, params.run_id);
  const approvals = await listApprovals({ agent: run.agent, runId: run.id });
  const indexes = await itemIndexes({ runId: run.id, itemIds: approvals.map((a) => a.item_id) });
  return { approvals: approvals.map((a) => ({ ...a, index: indexes.get(a.item_id) ?? null })) };
});
