-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "archived_at" TIMESTAMP(3);
