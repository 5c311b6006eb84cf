-- CreateTable
CREATE TABLE "evaluations" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "stop_reason" TEXT,
    "candidate_version" INTEGER NOT NULL,
    "candidate_draft" BOOLEAN NOT NULL DEFAULT false,
    "baseline_version" INTEGER,
    "source_kind" TEXT NOT NULL,
    "source" JSONB NOT NULL,
    "checks" JSONB NOT NULL DEFAULT '[]',
    "budget" JSONB NOT NULL DEFAULT '{}',
    "live_calls" BOOLEAN NOT NULL DEFAULT false,
    "cases_total" INTEGER NOT NULL DEFAULT 0,
    "estimate" JSONB NOT NULL DEFAULT '{}',
    "error" TEXT,
    "actor_type" TEXT NOT NULL,
    "actor_id" TEXT,
    "actor_label" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "evaluations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evaluation_cases" (
    "id" TEXT NOT NULL,
    "evaluation_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "source_type" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "input" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "outcome" TEXT,
    "skip_reason" TEXT,
    "baseline" JSONB,
    "candidate" JSONB,
    "baseline_latency_ms" INTEGER,
    "baseline_failed" BOOLEAN,
    "baseline_tokens" INTEGER,
    "baseline_cost" DOUBLE PRECISION,
    "candidate_latency_ms" INTEGER,
    "candidate_failed" BOOLEAN,
    "candidate_tokens" INTEGER,
    "candidate_cost" DOUBLE PRECISION,
    "changed" BOOLEAN,
    "check_results" JSONB,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "cost" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "claim_token" TEXT,
    "claimed_until" TIMESTAMP(3),
    "verdict" TEXT,
    "verdict_note" TEXT,
    "verdict_by" TEXT,
    "verdict_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "evaluation_cases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "evaluations_organization_id_agent_id_created_at_id_idx" ON "evaluations"("organization_id", "agent_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "evaluations_organization_id_status_idx" ON "evaluations"("organization_id", "status");

-- CreateIndex
CREATE INDEX "evaluations_status_updated_at_idx" ON "evaluations"("status", "updated_at");

-- CreateIndex
CREATE INDEX "evaluations_created_at_idx" ON "evaluations"("created_at");

-- CreateIndex
CREATE INDEX "evaluation_cases_evaluation_id_status_position_idx" ON "evaluation_cases"("evaluation_id", "status", "position");

-- CreateIndex
CREATE UNIQUE INDEX "evaluation_cases_evaluation_id_position_key" ON "evaluation_cases"("evaluation_id", "position");

-- AddForeignKey
ALTER TABLE "evaluation_cases" ADD CONSTRAINT "evaluation_cases_evaluation_id_fkey" FOREIGN KEY ("evaluation_id") REFERENCES "evaluations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
