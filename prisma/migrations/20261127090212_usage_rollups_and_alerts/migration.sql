-- CreateTable
CREATE TABLE "usage_hourly" (
    "organization_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL DEFAULT '',
    "hour" TIMESTAMP(3) NOT NULL,
    "triggers" INTEGER NOT NULL DEFAULT 0,
    "replies_completed" INTEGER NOT NULL DEFAULT 0,
    "replies_failed" INTEGER NOT NULL DEFAULT 0,
    "runs_started" INTEGER NOT NULL DEFAULT 0,
    "runs_completed" INTEGER NOT NULL DEFAULT 0,
    "runs_failed" INTEGER NOT NULL DEFAULT 0,
    "runs_cancelled" INTEGER NOT NULL DEFAULT 0,
    "runs_needs_review" INTEGER NOT NULL DEFAULT 0,
    "prompt_tokens" BIGINT NOT NULL DEFAULT 0,
    "completion_tokens" BIGINT NOT NULL DEFAULT 0,
    "cost" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "latency_ms_sum" BIGINT NOT NULL DEFAULT 0,
    "latency_buckets" INTEGER[],
    "uploads" INTEGER NOT NULL DEFAULT 0,
    "upload_bytes" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "usage_hourly_pkey" PRIMARY KEY ("organization_id","agent_id","key_id","hour")
);

-- CreateTable
CREATE TABLE "alert_rules" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "agent_id" TEXT,
    "threshold" DOUBLE PRECISION NOT NULL,
    "window_minutes" INTEGER NOT NULL DEFAULT 15,
    "min_volume" INTEGER NOT NULL DEFAULT 0,
    "quiet_minutes" INTEGER NOT NULL DEFAULT 0,
    "url" TEXT,
    "email" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "firing" BOOLEAN NOT NULL DEFAULT false,
    "fired_at" TIMESTAMP(3),
    "resolved_at" TIMESTAMP(3),
    "last_value" DOUBLE PRECISION,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_events" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "rule_id" TEXT NOT NULL,
    "rule_name" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "delivery_id" TEXT,
    "delivered_to" TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "usage_hourly_organization_id_hour_idx" ON "usage_hourly"("organization_id", "hour");

-- CreateIndex
CREATE INDEX "alert_rules_organization_id_created_at_id_idx" ON "alert_rules"("organization_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "alert_events_organization_id_created_at_id_idx" ON "alert_events"("organization_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "alert_events_rule_id_created_at_idx" ON "alert_events"("rule_id", "created_at");

-- Element-wise sum of two latency histograms (lib/usage/histogram.ts): the rollup upsert's
-- `latency_buckets = usage_add_buckets(old, new)`. A NULL array counts as all zeros.
CREATE OR REPLACE FUNCTION usage_add_buckets(a INTEGER[], b INTEGER[]) RETURNS INTEGER[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT COALESCE(array_agg(COALESCE(x, 0) + COALESCE(y, 0) ORDER BY i), '{}')
  FROM unnest(a, b) WITH ORDINALITY AS t(x, y, i)
$$;
