-- Agent versions (docs/decisions.md, 52). Every statement below changes only the catalog or small
-- tables: the big ones (messages, sessions, runs) get their column with a constant default, which
-- PostgreSQL 11+ records in the catalog instead of rewriting the table, so existing rows read 1 at
-- once (no backfill, no long lock); dropping the default afterwards leaves them at 1 and makes rows
-- that a previous release inserts during a rolling deploy NULL ("unknown"), never a wrong number.
-- The lock timeout keeps this migration from queueing every trigger behind it while a long
-- transaction holds one of these tables: it fails instead, and the migrator tries again
-- (lib/db/migrate.ts).
SET LOCAL lock_timeout = '5s';

-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "draft_version" INTEGER,
ADD COLUMN     "latest_version" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "previous_version" INTEGER,
ADD COLUMN     "published_version" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "rollout" JSONB;

-- AlterTable
ALTER TABLE "alert_events" ADD COLUMN     "rollout" JSONB;

-- AlterTable: existing replies, runs and sessions were made by version 1.
ALTER TABLE "messages" ADD COLUMN     "agent_version" INTEGER DEFAULT 1;
ALTER TABLE "messages" ALTER COLUMN "agent_version" DROP DEFAULT;

-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "agent_version" INTEGER DEFAULT 1;
ALTER TABLE "runs" ALTER COLUMN "agent_version" DROP DEFAULT;

-- AlterTable
ALTER TABLE "sessions" ADD COLUMN     "agent_version" INTEGER DEFAULT 1;
ALTER TABLE "sessions" ALTER COLUMN "agent_version" DROP DEFAULT;

-- CreateTable
CREATE TABLE "agent_versions" (
    "agent_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "organization_id" TEXT NOT NULL,
    "runtime" JSONB NOT NULL,
    "workflow" JSONB,
    "callback_url" TEXT,
    "note" TEXT,
    "base_version" INTEGER,
    "actor_type" TEXT NOT NULL,
    "actor_id" TEXT,
    "actor_label" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMP(3),
    "rolled_back_at" TIMESTAMP(3),

    CONSTRAINT "agent_versions_pkey" PRIMARY KEY ("agent_id","version")
);

-- Every existing agent's configuration becomes its version 1, published (agents is a small table).
INSERT INTO "agent_versions" ("agent_id", "version", "organization_id", "runtime", "workflow", "callback_url",
    "note", "actor_type", "actor_label", "created_at", "published_at")
SELECT "id", 1, "organization_id", "runtime", "workflow", "callback_url", 'Configuration before versions',
    'system', 'migration', "created_at", "created_at"
FROM "agents";

-- CreateTable
CREATE TABLE "version_usage_minutely" (
    "organization_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "agent_version" INTEGER NOT NULL,
    "minute" TIMESTAMP(3) NOT NULL,
    "triggers" INTEGER NOT NULL DEFAULT 0,
    "replies_completed" INTEGER NOT NULL DEFAULT 0,
    "replies_failed" INTEGER NOT NULL DEFAULT 0,
    "runs_started" INTEGER NOT NULL DEFAULT 0,
    "runs_completed" INTEGER NOT NULL DEFAULT 0,
    "runs_failed" INTEGER NOT NULL DEFAULT 0,
    "prompt_tokens" BIGINT NOT NULL DEFAULT 0,
    "completion_tokens" BIGINT NOT NULL DEFAULT 0,
    "cost" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "latency_ms_sum" BIGINT NOT NULL DEFAULT 0,
    "latency_buckets" INTEGER[],

    CONSTRAINT "version_usage_minutely_pkey" PRIMARY KEY ("agent_id","agent_version","minute")
);

-- CreateIndex
CREATE INDEX "version_usage_minutely_organization_id_minute_idx" ON "version_usage_minutely"("organization_id", "minute");

-- AddForeignKey
ALTER TABLE "agent_versions" ADD CONSTRAINT "agent_versions_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
