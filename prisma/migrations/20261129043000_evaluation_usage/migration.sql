-- Evaluation usage, counted apart from production's in the hourly rollups. Columns with a constant
-- default: a catalog change on PostgreSQL 11+, no table rewrite.
SET LOCAL lock_timeout = '5s';
ALTER TABLE "usage_hourly" ADD COLUMN "evaluation_cases" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "evaluation_tokens" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN "evaluation_cost" DOUBLE PRECISION NOT NULL DEFAULT 0;
