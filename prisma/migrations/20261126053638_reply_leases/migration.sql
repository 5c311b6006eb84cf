-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "lease_until" TIMESTAMP(3),
ADD COLUMN     "recoveries" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "messages_status_lease_until_idx" ON "messages"("status", "lease_until");
