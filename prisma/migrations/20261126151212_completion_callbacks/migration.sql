-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "callback_url" TEXT;

-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "callback_url" TEXT;

-- AlterTable
ALTER TABLE "runs" ADD COLUMN     "callback_url" TEXT;

-- CreateTable
CREATE TABLE "webhook_secrets" (
    "organization_id" TEXT NOT NULL,
    "ciphertext" TEXT NOT NULL,
    "hint" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_secrets_pkey" PRIMARY KEY ("organization_id")
);

-- CreateTable
CREATE TABLE "callback_deliveries" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "subject_id" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "round_start" INTEGER NOT NULL DEFAULT 0,
    "last_status_code" INTEGER,
    "next_attempt_at" TIMESTAMP(3),
    "request_headers" JSONB,
    "locked_until" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMP(3),

    CONSTRAINT "callback_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "callback_attempts" (
    "id" TEXT NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "status_code" INTEGER,
    "error" TEXT,
    "response_body" TEXT,

    CONSTRAINT "callback_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "callback_deliveries_organization_id_created_at_idx" ON "callback_deliveries"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "callback_deliveries_organization_id_status_created_at_idx" ON "callback_deliveries"("organization_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "callback_deliveries_status_next_attempt_at_idx" ON "callback_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "callback_attempts_delivery_id_number_key" ON "callback_attempts"("delivery_id", "number");

-- AddForeignKey
ALTER TABLE "webhook_secrets" ADD CONSTRAINT "webhook_secrets_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "callback_deliveries" ADD CONSTRAINT "callback_deliveries_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "callback_attempts" ADD CONSTRAINT "callback_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "callback_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
