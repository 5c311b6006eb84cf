-- DropIndex
DROP INDEX "access_keys_organization_id_created_at_idx";

-- DropIndex
DROP INDEX "agents_organization_id_created_at_idx";

-- CreateIndex
CREATE INDEX "access_keys_organization_id_created_at_id_idx" ON "access_keys"("organization_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "agents_organization_id_created_at_id_idx" ON "agents"("organization_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "sessions_agent_id_environment_status_last_message_at_id_idx" ON "sessions"("agent_id", "environment", "status", "last_message_at", "id");
