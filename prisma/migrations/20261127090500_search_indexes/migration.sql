-- Search (lib/search): the console's search box and the case timeline per end user. Its
-- expression indexes are written by hand (Prisma's schema cannot describe them; its diff ignores them).

-- Free text in message contents and run item data: full-text search, 'simple' configuration (no
-- stemming, any language), on GIN expression indexes that the queries of lib/search repeat exactly.
CREATE INDEX "messages_content_fts_idx" ON "messages" USING GIN (to_tsvector('simple'::regconfig, "content"));
CREATE INDEX "run_items_data_fts_idx" ON "run_items" USING GIN (to_tsvector('simple'::regconfig, "data"));

-- field:value on session metadata and run inputs: JSON containment (@>).
CREATE INDEX "sessions_metadata_path_idx" ON "sessions" USING GIN ("metadata" jsonb_path_ops);
CREATE INDEX "runs_inputs_path_idx" ON "runs" USING GIN ("inputs" jsonb_path_ops);

-- An end user's sessions, newest first (search by user id, the timeline).
CREATE INDEX "sessions_organization_id_user_id_created_at_id_idx" ON "sessions" ("organization_id", "user_id", "created_at", "id");

-- A prefix of an id (8+ characters): left(id, 40) ~>=~ 'prefix' reads an index range in any collation
-- (an expression, so that Prisma's schema, which cannot say text_pattern_ops, leaves it alone).
CREATE INDEX "sessions_id_prefix_idx" ON "sessions" ((left("id", 40)) text_pattern_ops);
CREATE INDEX "messages_id_prefix_idx" ON "messages" ((left("id", 40)) text_pattern_ops);
CREATE INDEX "runs_id_prefix_idx" ON "runs" ((left("id", 40)) text_pattern_ops);
CREATE INDEX "files_id_prefix_idx" ON "files" ((left("id", 40)) text_pattern_ops);
CREATE INDEX "callback_deliveries_id_prefix_idx" ON "callback_deliveries" ((left("id", 40)) text_pattern_ops);

-- The case timeline: the callback deliveries of an end user's messages and runs.
CREATE INDEX "callback_deliveries_subject_id_idx" ON "callback_deliveries"("subject_id");

-- A free-text search first reads the organization's newest messages (lib/search/service.ts).
CREATE INDEX "messages_organization_id_created_at_id_idx" ON "messages"("organization_id", "created_at", "id");
