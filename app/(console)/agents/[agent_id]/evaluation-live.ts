// Whether an evaluation still moves (queued or running): the pages that show it poll it meanwhile.
import { FINISHED_STATUSES, type EvaluationRecord } from "@/lib/evaluations/schemas";

/** Still moving: polled every second. */
export const isLive = (e: Pick<EvaluationRecord, "status"> | undefined) =>
  e !== undefined && !FINISHED_STATUSES.includes(e.status);
