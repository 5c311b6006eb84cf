-- The review inbox's live updates and search both indexed messages by (organization, created_at);
-- search's (organization_id, created_at, id) serves both.
-- DropIndex
DROP INDEX "messages_organization_id_created_at_idx";
