-- A workflow item's step timeline (docs/workflows.md, "Step timeline"): the trace the engine appends
-- on every pass. A nullable column without a default: no table rewrite, so the lock is brief.
SET LOCAL lock_timeout = '5s';

-- AlterTable
ALTER TABLE "run_items" ADD COLUMN     "steps" JSONB;
