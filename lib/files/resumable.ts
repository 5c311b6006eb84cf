// Resumable uploads (tus 1.0, served by app/api/agents/[agent_id]/upload/tus/[[...path]]/tus.ts):
// the record of who may continue an upload, and the moment it becomes an ordinary file. An upload
// becomes a file exactly once: the File row and the upload's `file_id` are written in one
// transaction that only applies while `file_id` is still null, so a retried last PATCH, a HEAD
// after a crash and a GET all find the same fi_ id.
import { prisma } from "../db";
import { recordUsage } from "../usage/recorder";
import type { z } from "zod";
import { env } from "../env";
import { ApiError } from "../errors";
import type { Upload } from "../generated/prisma/client";
import { newFileId, newId } from "../ids";
import { log } from "../log";
import { TUS_PREFIX, tusStore } from "../storage";
import { unstorable } from "../validate";
import { DEFAULT_CONTENT_TYPE, mediaTypeProblem } from "./media-type";
import { afterCursor, instantRange, pageOf } from "../pagination";
import type { AgentFilePage } from "./schemas";

const MAX_FILENAME_LENGTH = 255;

export const newUploadId = () => newId("upl");

const notFound = () => new ApiError("upload_not_found", "No such upload for this agent.");

/** The upload `uploadId` of this organization's agent, or 404 (also for another organization's). */
export async function loadUpload(opts: { organizationId: string; agentId: string; uploadId: string }) {
  if (!/^upl_[0-9A-Za-z]{1,64}$/.test(opts.uploadId)) throw notFound();
  const db = await prisma();
  const row = await db.upload.findFirst({
    where: { id: opts.uploadId, organizationId: opts.organizationId, agentId: opts.agentId },
  });
  if (!row) throw notFound();
  return row;
}

/** Called when a client creates an upload, before any byte is stored. */
export async function recordUpload(opts: {
  uploadId: string;
  organizationId: string;
  agentId: string;
  size: number | undefined;
  metadata: Record<string, string | null> | undefined;
}) {
  if (opts.size === undefined) {
    throw new ApiError("invalid_request", "Upload-Length is required: the size of the file must be known at creation.");
  }
  if (opts.size === 0) throw new ApiError("empty_file", "The file is empty.");
  // A NUL in a metadata value cannot be stored (PostgreSQL text): refused, not a 500.
  for (const name of ["filename", "filetype"]) {
    const problem = unstorable(opts.metadata?.[name] ?? "");
    if (problem) {
      throw new ApiError("invalid_request", `Invalid Upload-Metadata: ${name} ${problem.message}.`, {
        fields: [{ field: `Upload-Metadata.${name}`, message: problem.message }],
      });
    }
  }
  const filetype = opts.metadata?.filetype;
  const typeProblem = filetype ? mediaTypeProblem(filetype) : undefined;
  if (typeProblem) {
    throw new ApiError("invalid_request", `Invalid Upload-Metadata: filetype ${typeProblem}.`, {
      fields: [{ field: "Upload-Metadata.filetype", message: typeProblem }],
    });
  }
  if (opts.size > env().UPLOAD_MAX_BYTES) {
    throw new ApiError("payload_too_large", `The file exceeds ${env().UPLOAD_MAX_BYTES} bytes.`, {
      limit_bytes: env().UPLOAD_MAX_BYTES,
    });
  }
  const db = await prisma();
  await db.upload.create({
    data: {
      id: opts.uploadId,
      organizationId: opts.organizationId,
      agentId: opts.agentId,
      filename: (opts.metadata?.filename || "file").slice(0, MAX_FILENAME_LENGTH),
      contentType: opts.metadata?.filetype || DEFAULT_CONTENT_TYPE,
      sizeBytes: BigInt(opts.size),
    },
  });
}

/**
 * Makes the upload a file once all its bytes are stored; returns the file id (the same on every
 * call). Null while bytes are missing.
 */
export async function finishUpload(upload: Upload): Promise<string | null> {
  if (upload.fileId) return upload.fileId;
  const stored = await tusStore()
    .getUpload(upload.id)
    .catch(() => null);
  if (!stored || stored.offset !== Number(upload.sizeBytes)) return null;
  const db = await prisma();
  const fileId = newFileId();
  const made = await db.$transaction(async (tx) => {
    const claimed = await tx.upload.updateMany({
      where: { id: upload.id, fileId: null },
      data: { fileId, finishedAt: new Date() },
    });
    if (claimed.count !== 1) return false;
    await tx.file.create({
      data: {
        id: fileId,
        organizationId: upload.organizationId,
        agentId: upload.agentId,
        filename: upload.filename,
        contentType: upload.contentType,
        sizeBytes: upload.sizeBytes,
        storageKey: `${TUS_PREFIX}/${upload.id}`,
      },
    });
    return true;
  });
  if (made) {
    recordUsage({
      organizationId: upload.organizationId,
      agentId: upload.agentId,
      uploads: 1,
      uploadBytes: Number(upload.sizeBytes),
    });
    return fileId;
  }
  return (await db.upload.findUniqueOrThrow({ where: { id: upload.id } })).fileId;
}

/** The file object of a finished upload (docs/api.md, Upload); 409 upload_incomplete while bytes are missing. */
export async function uploadedFile(upload: Upload) {
  const fileId = await finishUpload(upload);
  if (!fileId) {
    const stored = await tusStore()
      .getUpload(upload.id)
      .catch(() => null);
    throw new ApiError("upload_incomplete", "The upload has not received all its bytes yet.", {
      offset: stored?.offset ?? 0,
      length: Number(upload.sizeBytes),
    });
  }
  return {
    file_id: fileId,
    size_bytes: Number(upload.sizeBytes),
    content_type: upload.contentType,
    filename: upload.filename,
  };
}

/** Removes an upload's bytes and state, whichever of the two is still there. */
async function removeStored(uploadId: string) {
  await tusStore().discard(uploadId);
}

/**
 * A creation that failed after the upload was recorded (storage refused its bytes or state): the
 * client got no upload URL, so nobody can continue it. Its record and whatever was stored go.
 */
export async function discardUpload(uploadId: string) {
  const db = await prisma();
  const gone = await db.upload.deleteMany({ where: { id: uploadId, fileId: null } });
  if (gone.count === 1) await removeStored(uploadId);
}

/** After a successful termination (DELETE): the upload is gone, its URL answers 404. */
export async function forgetUpload(uploadId: string) {
  const db = await prisma();
  await db.upload.deleteMany({ where: { id: uploadId, fileId: null } });
}

/**
 * Deletes unfinished uploads older than UPLOAD_EXPIRY_HOURS: their records, then their bytes and
 * state. Finished uploads are files and stay. Not FileStore.deleteExpired: it compares the size with
 * the offset saved at creation (always 0), so it would delete the bytes of finished uploads too.
 */
export async function deleteExpiredUploads(now = new Date()): Promise<number> {
  const db = await prisma();
  const cutoff = new Date(now.getTime() - env().UPLOAD_EXPIRY_HOURS * 3_600_000);
  const expired = await db.upload.findMany({ where: { fileId: null, createdAt: { lt: cutoff } }, take: 1000 });
  let removed = 0;
  for (const upload of expired) {
    // Every byte arrived but the process stopped before the file was recorded: it is a file.
    if (await finishUpload(upload)) continue;
    const gone = await db.upload.deleteMany({ where: { id: upload.id, fileId: null } });
    if (gone.count !== 1) continue; // finished in the meantime
    await removeStored(upload.id);
    removed++;
  }
  // Bytes left without a record (a crash between the two steps above).
  const stored = await tusStore()
    .listStored()
    .catch(() => []);
  const known = new Set(
    (await db.upload.findMany({ where: { id: { in: stored.map((s) => s.id) } }, select: { id: true } })).map(
      (u) => u.id,
    ),
  );
  for (const { id, createdAt } of stored.filter((s) => !known.has(s.id))) {
    if (createdAt && createdAt < cutoff) {
      await removeStored(id);
      removed++;
    }
  }
  if (removed) log.info({ uploads_removed: removed }, "expired uploads deleted");
  return removed;
}

/** The agent's files for the console, newest first. */
export async function listAgentFiles(opts: {
  organizationId: string;
  agentId: string;
  limit: number;
  cursor?: string;
  from?: Date;
  to?: Date;
}): Promise<z.output<typeof AgentFilePage>> {
  const db = await prisma();
  const rows = await db.file.findMany({
    where: {
      AND: [
        { organizationId: opts.organizationId, agentId: opts.agentId, ...instantRange("createdAt", opts) },
        afterCursor("createdAt", opts.cursor),
      ],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: opts.limit + 1,
  });
  const page = pageOf(rows, opts.limit, (f) => f.createdAt);
  return {
    files: page.rows.map((f) => ({
      file_id: f.id,
      filename: f.filename,
      content_type: f.contentType,
      size_bytes: Number(f.sizeBytes),
      created_at: f.createdAt.toISOString(),
    })),
    has_more: page.has_more,
    next_cursor: page.next_cursor,
  };
}
