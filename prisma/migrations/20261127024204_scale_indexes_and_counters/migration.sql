-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN     "action_group" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "run_status_counts" (
    "organization_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "n" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "run_status_counts_pkey" PRIMARY KEY ("organization_id","status","slot")
);

-- CreateTable
CREATE TABLE "session_counts_hourly" (
    "organization_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "slot" INTEGER NOT NULL,
    "n" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "session_counts_hourly_pkey" PRIMARY KEY ("organization_id","environment","hour","slot")
);

-- CreateIndex
CREATE INDEX "audit_events_organization_id_created_at_id_idx" ON "audit_events"("organization_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "audit_events_organization_id_action_created_at_id_idx" ON "audit_events"("organization_id", "action", "created_at", "id");

-- CreateIndex
CREATE INDEX "audit_events_organization_id_action_group_created_at_id_idx" ON "audit_events"("organization_id", "action_group", "created_at", "id");

-- CreateIndex
CREATE INDEX "callback_deliveries_organization_id_id_idx" ON "callback_deliveries"("organization_id", "id");

-- CreateIndex
CREATE INDEX "callback_deliveries_organization_id_status_id_idx" ON "callback_deliveries"("organization_id", "status", "id");

-- CreateIndex
CREATE INDEX "callback_deliveries_agent_id_id_idx" ON "callback_deliveries"("agent_id", "id");

-- CreateIndex
CREATE INDEX "files_agent_id_created_at_id_idx" ON "files"("agent_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "messages_organization_id_status_created_at_id_idx" ON "messages"("organization_id", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "runs_agent_id_created_at_id_idx" ON "runs"("agent_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "runs_agent_id_status_created_at_id_idx" ON "runs"("agent_id", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "runs_organization_id_created_at_id_idx" ON "runs"("organization_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "runs_organization_id_status_created_at_id_idx" ON "runs"("organization_id", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "sessions_agent_id_environment_last_message_at_id_idx" ON "sessions"("agent_id", "environment", "last_message_at", "id");

-- CreateIndex
CREATE INDEX "sessions_organization_id_last_message_at_id_idx" ON "sessions"("organization_id", "last_message_at", "id");

-- DropIndex
DROP INDEX "audit_events_organization_id_action_created_at_idx";

-- DropIndex
DROP INDEX "audit_events_organization_id_created_at_idx";

-- DropIndex
DROP INDEX "callback_deliveries_organization_id_created_at_idx";

-- DropIndex
DROP INDEX "callback_deliveries_organization_id_status_created_at_idx";

-- DropIndex
DROP INDEX "files_agent_id_created_at_idx";

-- DropIndex
DROP INDEX "messages_organization_id_status_created_at_idx";

-- DropIndex
DROP INDEX "runs_agent_id_created_at_idx";

-- DropIndex
DROP INDEX "runs_agent_id_status_created_at_idx";

-- DropIndex
DROP INDEX "runs_organization_id_created_at_idx";

-- DropIndex
DROP INDEX "sessions_agent_id_environment_last_message_at_idx";

-- DropIndex
DROP INDEX "sessions_organization_id_last_message_at_idx";

-- The action group of the audit rows written before this column.
UPDATE "audit_events" SET "action_group" = split_part("action", '.', 1) WHERE "action_group" = '';

-- Counters kept as work happens (schema.prisma RunStatusCount, SessionCountHourly). Each change
-- adds to one of 8 slots chosen by the row's id, so that concurrent writers of one organization
-- rarely wait on the same counter row.
CREATE FUNCTION "count_run_statuses"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "run_status_counts" ("organization_id", "status", "slot", "n")
    VALUES (OLD."organization_id", OLD."status", abs(hashtext(OLD."id")) % 8, -1)
    ON CONFLICT ("organization_id", "status", "slot") DO UPDATE SET "n" = "run_status_counts"."n" - 1;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "run_status_counts" ("organization_id", "status", "slot", "n")
    VALUES (NEW."organization_id", NEW."status", abs(hashtext(NEW."id")) % 8, 1)
    ON CONFLICT ("organization_id", "status", "slot") DO UPDATE SET "n" = "run_status_counts"."n" + 1;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "runs_count_statuses_insert_delete" AFTER INSERT OR DELETE ON "runs"
  FOR EACH ROW EXECUTE FUNCTION "count_run_statuses"();
CREATE TRIGGER "runs_count_statuses_update" AFTER UPDATE OF "status", "organization_id" ON "runs"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."organization_id" IS DISTINCT FROM NEW."organization_id")
  EXECUTE FUNCTION "count_run_statuses"();

CREATE FUNCTION "count_sessions_hourly"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO "session_counts_hourly" ("organization_id", "environment", "hour", "slot", "n")
    VALUES (OLD."organization_id", OLD."environment", date_trunc('hour', OLD."created_at"), abs(hashtext(OLD."id")) % 8, -1)
    ON CONFLICT ("organization_id", "environment", "hour", "slot") DO UPDATE SET "n" = "session_counts_hourly"."n" - 1;
  ELSE
    INSERT INTO "session_counts_hourly" ("organization_id", "environment", "hour", "slot", "n")
    VALUES (NEW."organization_id", NEW."environment", date_trunc('hour', NEW."created_at"), abs(hashtext(NEW."id")) % 8, 1)
    ON CONFLICT ("organization_id", "environment", "hour", "slot") DO UPDATE SET "n" = "session_counts_hourly"."n" + 1;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "sessions_count_hourly" AFTER INSERT OR DELETE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION "count_sessions_hourly"();

-- The counts of the rows written before the triggers.
INSERT INTO "run_status_counts" ("organization_id", "status", "slot", "n")
SELECT "organization_id", "status", abs(hashtext("id")) % 8, count(*) FROM "runs" GROUP BY 1, 2, 3;
INSERT INTO "session_counts_hourly" ("organization_id", "environment", "hour", "slot", "n")
SELECT "organization_id", "environment", date_trunc('hour', "created_at"), abs(hashtext("id")) % 8, count(*)
FROM "sessions" GROUP BY 1, 2, 3, 4;
