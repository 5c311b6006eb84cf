-- AlterTable
ALTER TABLE "access_keys" ADD COLUMN     "rate_limit_per_minute" INTEGER;

-- CreateTable
-- UNLOGGED (edited by hand; Prisma has no syntax for it): the counters need no crash safety or
-- replication, and skipping the WAL makes the per-request upsert cheaper.
CREATE UNLOGGED TABLE "rate_limits" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);
