-- AlterTable
ALTER TABLE "users" ADD COLUMN     "session_epoch" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "sign_in_failures" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "ip" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sign_in_failures_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sign_in_failures_email_ip_created_at_idx" ON "sign_in_failures"("email", "ip", "created_at");

-- CreateIndex
CREATE INDEX "audit_events_organization_id_action_created_at_idx" ON "audit_events"("organization_id", "action", "created_at");

-- CreateIndex
CREATE INDEX "messages_organization_id_status_created_at_idx" ON "messages"("organization_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "runs_organization_id_created_at_idx" ON "runs"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "sessions_organization_id_last_message_at_idx" ON "sessions"("organization_id", "last_message_at");
