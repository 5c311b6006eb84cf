-- CreateTable
CREATE TABLE "uploads" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "filename" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size_bytes" BIGINT NOT NULL,
    "file_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "uploads_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "uploads_file_id_key" ON "uploads"("file_id");

-- CreateIndex
CREATE INDEX "uploads_agent_id_created_at_idx" ON "uploads"("agent_id", "created_at");

-- CreateIndex
CREATE INDEX "uploads_created_at_idx" ON "uploads"("created_at");
