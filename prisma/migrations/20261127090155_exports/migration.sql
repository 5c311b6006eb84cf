-- CreateTable
CREATE TABLE "exports" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "filters" JSONB NOT NULL DEFAULT '{}',
    "redact" JSONB NOT NULL DEFAULT '{}',
    "rules_applied" TEXT[],
    "status" TEXT NOT NULL DEFAULT 'queued',
    "rows_written" INTEGER NOT NULL DEFAULT 0,
    "rows_estimated" INTEGER,
    "size_bytes" BIGINT,
    "storage_key" TEXT,
    "error_code" TEXT,
    "requested_by_id" TEXT,
    "requested_by_label" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "exports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "exports_organization_id_created_at_id_idx" ON "exports"("organization_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "exports_expires_at_idx" ON "exports"("expires_at");
