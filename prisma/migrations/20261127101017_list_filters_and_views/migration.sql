-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "user_id" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "saved_views" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "list" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "filters" JSONB NOT NULL DEFAULT '{}',
    "shared" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "saved_views_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "saved_views_organization_id_list_shared_created_at_id_idx" ON "saved_views"("organization_id", "list", "shared", "created_at", "id");

-- CreateIndex
CREATE INDEX "saved_views_organization_id_user_id_list_created_at_id_idx" ON "saved_views"("organization_id", "user_id", "list", "created_at", "id");

-- CreateIndex
CREATE INDEX "callback_deliveries_agent_id_status_id_idx" ON "callback_deliveries"("agent_id", "status", "id");

-- CreateIndex
CREATE INDEX "runs_organization_id_user_id_created_at_id_idx" ON "runs"("organization_id", "user_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "sessions_organization_id_agent_id_last_message_at_id_idx" ON "sessions"("organization_id", "agent_id", "last_message_at", "id");

-- CreateIndex
CREATE INDEX "sessions_organization_id_user_id_last_message_at_id_idx" ON "sessions"("organization_id", "user_id", "last_message_at", "id");

-- CreateIndex
CREATE INDEX "sessions_organization_id_environment_last_message_at_id_idx" ON "sessions"("organization_id", "environment", "last_message_at", "id");

-- The runs made before: their `user_id` input, when it is a string of at most 256 characters.
UPDATE "runs" SET "user_id" = "inputs"->>'user_id'
WHERE jsonb_typeof("inputs"->'user_id') = 'string' AND length("inputs"->>'user_id') <= 256;
