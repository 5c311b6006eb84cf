-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "retention_days" INTEGER;

-- CreateIndex
CREATE INDEX "callback_deliveries_organization_id_created_at_idx" ON "callback_deliveries"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "files_organization_id_created_at_idx" ON "files"("organization_id", "created_at");
