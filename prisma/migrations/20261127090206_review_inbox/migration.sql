-- AlterTable
ALTER TABLE "run_items" ADD COLUMN     "claimed_by" TEXT,
ADD COLUMN     "claimed_by_label" TEXT,
ADD COLUMN     "claimed_until" TIMESTAMP(3),
ADD COLUMN     "reason" TEXT,
ADD COLUMN     "resolution_diff" JSONB,
ADD COLUMN     "resolved_at" TIMESTAMP(3),
ADD COLUMN     "resolved_by" TEXT;

-- CreateIndex
CREATE INDEX "messages_organization_id_created_at_idx" ON "messages"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "messages_organization_id_completed_at_idx" ON "messages"("organization_id", "completed_at");

-- CreateIndex
CREATE INDEX "run_items_status_created_at_id_idx" ON "run_items"("status", "created_at", "id");

-- CreateIndex
CREATE INDEX "runs_organization_id_updated_at_idx" ON "runs"("organization_id", "updated_at");
