// The states a run can be in, apart from the machine that moves it (state.ts): the response schemas
// and the console's filters name them without loading the database layer.
export const RUN_STATUSES = [
  "pending",
  "running",
  "completed",
  "failed",
  "needs_review",
  "cancelled",
  "paused",
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
