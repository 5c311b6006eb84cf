-- CreateIndex
CREATE INDEX "messages_session_id_completed_at_idx" ON "messages"("session_id", "completed_at");
