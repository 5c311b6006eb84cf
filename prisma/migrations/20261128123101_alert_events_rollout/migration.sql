-- Agent versions (docs/decisions.md, 52), 5 of 5: a rollout guard's fire names the rollout it rolled
-- back. One table per migration: see the first of the five.
SET LOCAL lock_timeout = '5s';

-- AlterTable
ALTER TABLE "alert_events" ADD COLUMN     "rollout" JSONB;
