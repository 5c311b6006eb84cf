-- AlterTable
ALTER TABLE "access_keys" ADD COLUMN     "agent_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "expires_at" TIMESTAMP(3),
ADD COLUMN     "revoke_at" TIMESTAMP(3),
ADD COLUMN     "rolled_from_id" TEXT,
ADD COLUMN     "rolled_to_id" TEXT;

-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "access_key_id" TEXT;

-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "access_key_id" TEXT;

-- AlterTable
ALTER TABLE "sessions" ADD COLUMN     "access_key_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "access_keys_rolled_to_id_key" ON "access_keys"("rolled_to_id");

-- CreateIndex
CREATE INDEX "access_keys_revoke_at_idx" ON "access_keys"("revoke_at");

-- CreateIndex
CREATE INDEX "access_keys_organization_id_expires_at_idx" ON "access_keys"("organization_id", "expires_at");

-- CreateIndex
CREATE INDEX "messages_access_key_id_created_at_idx" ON "messages"("access_key_id", "created_at");

-- CreateIndex
CREATE INDEX "runs_access_key_id_created_at_idx" ON "runs"("access_key_id", "created_at");

-- CreateIndex
CREATE INDEX "sessions_access_key_id_created_at_idx" ON "sessions"("access_key_id", "created_at");
