-- Agent versions (docs/decisions.md, 52), 1 of 5: the versions table, every existing agent's
-- configuration as its version 1 (agents is a small table), and the per-version usage rollup.
-- Each of the five migrations locks one existing table, so that none holds a lock while it waits for
-- another: a trigger of the running release holds sessions and messages while it checks its agent,
-- and one transaction altering all of them deadlocked with it (bench/migration.bench.ts). The lock
-- timeout keeps a migration from queueing every trigger behind it while a long transaction holds its
-- table: it fails instead, and the migrator tries again (lib/db/migrate.ts).
SET LOCAL lock_timeout = '5s';

-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "draft_version" INTEGER,
ADD COLUMN     "latest_version" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "previous_version" INTEGER,
ADD COLUMN     "published_version" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "rollout" JSONB;

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
