import { HttpAnswer, withAccessKey } from "@/lib/http/handler";
import { NEXT_CURSOR_HEADER } from "@/lib/runs/schemas";
import { listRuns } from "@/lib/runs/service";
import * as contract from "./contract";

// The body stays a bare array of runs (docs/api.md, Workflow agents); the next page's cursor is a header.
export const GET = withAccessKey(contract.GET, async ({ agent, query }) => {
  const { runs, next_cursor } = await listRuns({ agent, ...query });
  return new HttpAnswer(runs, 200, next_cursor ? { [NEXT_CURSOR_HEADER]: next_cursor } : {});
});
