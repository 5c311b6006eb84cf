-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "rerun_of" TEXT;

-- CreateTable
CREATE TABLE "bulk_actions" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "selection" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "matched" INTEGER NOT NULL DEFAULT 0,
    "allowed" INTEGER NOT NULL DEFAULT 0,
    "not_allowed" JSONB NOT NULL,
    "cursor" TEXT,
    "done" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "actor_type" TEXT NOT NULL,
    "actor_id" TEXT,
    "actor_label" TEXT,
    "error" TEXT,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "bulk_actions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bulk_action_targets" (
    "bulk_action_id" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bulk_action_targets_pkey" PRIMARY KEY ("bulk_action_id","target_id")
);

-- CreateIndex
CREATE INDEX "bulk_actions_organization_id_started_at_id_idx" ON "bulk_actions"("organization_id", "started_at", "id");

-- CreateIndex
CREATE INDEX "runs_rerun_of_idx" ON "runs"("rerun_of");

-- AddForeignKey
ALTER TABLE "bulk_action_targets" ADD CONSTRAINT "bulk_action_targets_bulk_action_id_fkey" FOREIGN KEY ("bulk_action_id") REFERENCES "bulk_actions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
