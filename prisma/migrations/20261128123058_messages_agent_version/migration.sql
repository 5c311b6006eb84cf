-- Agent versions (docs/decisions.md, 52), 2 of 5: the replies' agent_version. A constant default is
-- recorded in the catalog instead of rewriting the table (PostgreSQL 11+), so existing rows read 1 at
-- once, with no backfill and no long lock; dropping the default afterwards leaves them at 1 and makes
-- the rows that a previous release inserts during a rolling deploy NULL ("unknown"), never a wrong
-- number. One table per migration: see the first of the five.
SET LOCAL lock_timeout = '5s';

-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "agent_version" INTEGER DEFAULT 1;
ALTER TABLE "messages" ALTER COLUMN "agent_version" DROP DEFAULT;
