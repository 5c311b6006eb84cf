// The console's uploaded files (/uploads): a signed download link for one file, and its deletion
// (admins; audited). A file of another organization or agent answers 404 as a missing one does.
import type { Actor } from "../audit";
import { audit } from "../audit";
import { prisma } from "../db";
import { ApiError } from "../errors";
import { log } from "../log";
import { storage } from "../storage";
import { signDownload } from "./signing";

const notFound = () => new ApiError("not_found", "No such uploaded file for this agent.");

async function findFile(organizationId: string, agentId: string, fileId: string) {
  const db = await prisma();
  const file = await db.file.findFirst({ where: { id: fileId, organizationId, agentId } });
  if (!file) throw notFound();
  return file;
}

/** A short-lived signed link to the file's bytes (GET /api/files/download). */
export async function fileLink(opts: { organizationId: string; agentId: string; fileId: string; baseUrl: string }) {
  const file = await findFile(opts.organizationId, opts.agentId, opts.fileId);
  const signed = signDownload({
    storageKey: file.storageKey,
    filename: file.filename,
    contentType: file.contentType,
    baseUrl: opts.baseUrl,
  });
  return { file_id: file.id, filename: file.filename, download_url: signed.url, expires_at: signed.url_expires_at };
}

/** Deletes the file's record, then its bytes (a failure to remove them is logged, as retention does). */
export async function deleteFile(opts: { organizationId: string; agentId: string; fileId: string; actor: Actor }) {
  const file = await findFile(opts.organizationId, opts.agentId, opts.fileId);
  const db = await prisma();
  await db.$transaction(async (tx) => {
    await tx.file.delete({ where: { id: file.id } });
    await audit({
      tx,
      organizationId: opts.organizationId,
      actor: opts.actor,
      action: "file.deleted",
      targetType: "file",
      targetId: file.id,
      data: { agent_id: file.agentId, filename: file.filename },
    });
  });
  await storage()
    .remove(file.storageKey)
    .catch((err) => log.warn({ err: { message: (err as Error).message } }, "file delete: stored bytes not removed"));
  return { file_id: file.id, deleted: true as const };
}
