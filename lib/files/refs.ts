// File references (docs/api.md, Trigger): `{"file_id": "fi_..."}` objects anywhere in a trigger body become the
// file's metadata and a 15-minute signed URL before the agent runs. Only that exact single-key
// shape is a reference; bare id strings and objects with other keys are data and stay as they are.
import type { Readable } from "node:stream";
import { prisma } from "../db";
import { ApiError } from "../errors";
import { FILE_ID_FORMAT, FILE_ID_RE } from "../id-format";
import { storage } from "../storage";
import { DOWNLOAD_PATH, signDownload } from "./signing";

export interface ResolvedFile {
  file_id: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  url: string;
  url_expires_at: string;
}

interface Ref {
  fileId: string;
  field: string;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A reference is an object whose only key is file_id, holding a string that starts with fi_. */
function refIn(v: unknown): string | undefined {
  if (!isPlainObject(v)) return undefined;
  const keys = Object.keys(v);
  if (keys.length !== 1 || keys[0] !== "file_id") return undefined;
  const id = v.file_id;
  return typeof id === "string" && id.startsWith("fi_") ? id : undefined;
}

function fieldPath(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

function collect(value: unknown, field: string, out: Ref[]) {
  const id = refIn(value);
  if (id !== undefined) {
    out.push({ fileId: id, field: field || "(root)" });
    return;
  }
  if (Array.isArray(value)) value.forEach((v, i) => collect(v, fieldPath(field, i), out));
  else if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) collect(v, fieldPath(field, k), out);
}

function replace(value: unknown, resolved: Map<string, ResolvedFile>): unknown {
  const id = refIn(value);
  if (id !== undefined) return { ...resolved.get(id)! };
  if (Array.isArray(value)) return value.map((v) => replace(v, resolved));
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replace(v, resolved)]));
  }
  return value;
}

const notFound = (ref: Ref) =>
  new ApiError("file_not_found", `File ${ref.fileId} (at ${ref.field}) was not found for this agent.`, {
    file_id: ref.fileId,
    field: ref.field,
  });

/** A malformed id is refused like an unknown one (same code), with what a file id looks like. */
const malformedId = (ref: Ref) =>
  new ApiError(
    "file_not_found",
    `File ${ref.fileId} (at ${ref.field}) is not a file id: a file id is ${FILE_ID_FORMAT}.`,
    { file_id: ref.fileId, field: ref.field },
  );

/** Replaces every object that consists of exactly the single key file_id with an fi_ value,
 *  anywhere in `value` (nested objects and arrays), by its ResolvedFile. Bare strings are left
 *  alone. Unknown ids and files of another agent or organization -> ApiError("file_not_found",
 *  ..., { file_id, field }) (400). One DB query for all ids. */
export async function resolveFileRefs<T>(
  value: T,
  opts: { organizationId: string; agentId: string; baseUrl: string },
): Promise<T> {
  const refs: Ref[] = [];
  collect(value, "", refs);
  if (!refs.length) return value;
  const malformed = refs.find((r) => !FILE_ID_RE.test(r.fileId));
  if (malformed) throw malformedId(malformed);

  const ids = [...new Set(refs.map((r) => r.fileId))];
  const db = await prisma();
  const rows = await db.file.findMany({
    where: { id: { in: ids }, organizationId: opts.organizationId, agentId: opts.agentId },
  });
  const resolved = new Map<string, ResolvedFile>();
  for (const f of rows) {
    const signed = signDownload({
      storageKey: f.storageKey,
      filename: f.filename,
      contentType: f.contentType,
      baseUrl: opts.baseUrl,
    });
    resolved.set(f.id, {
      file_id: f.id,
      filename: f.filename,
      content_type: f.contentType,
      size_bytes: Number(f.sizeBytes),
      ...signed,
    });
  }
  const missing = refs.find((r) => !resolved.has(r.fileId));
  if (missing) throw notFound(missing);
  return replace(value, resolved) as T;
}

/** The id of a file resolved earlier (a ResolvedFile as handed out: file_id, url, url_expires_at, ...). */
function resolvedIn(v: unknown): string | undefined {
  if (!isPlainObject(v)) return undefined;
  const id = v.file_id;
  return typeof id === "string" && FILE_ID_RE.test(id) && typeof v.url === "string" && "url_expires_at" in v
    ? id
    : undefined;
}

function collectResolved(value: unknown, out: Set<string>) {
  const id = resolvedIn(value);
  if (id !== undefined) out.add(id);
  else if (Array.isArray(value)) value.forEach((v) => collectResolved(v, out));
  else if (isPlainObject(value)) Object.values(value).forEach((v) => collectResolved(v, out));
}

/** The address a signed link was made for (what precedes the download path), if it is one of ours. */
function baseOf(url: string): string | undefined {
  const at = url.indexOf(`${DOWNLOAD_PATH}?`);
  return at > 0 ? url.slice(0, at) : undefined;
}

/**
 * Fresh links for files resolved earlier: every ResolvedFile anywhere in `value` (as stored with a
 * trigger, and handed to a runtime again at a retry or a recovery) gets a new `url` and
 * `url_expires_at`, signed now, for the address its old link used (else `baseUrl`). One query, only
 * when there is a file; a file deleted since keeps its old link. `value` is not changed in place.
 */
export async function refreshFileUrls<T>(
  value: T,
  opts: { organizationId: string; agentId: string; baseUrl: string },
): Promise<T> {
  const ids = new Set<string>();
  collectResolved(value, ids);
  if (!ids.size) return value;
  const db = await prisma();
  const rows = await db.file.findMany({
    where: { id: { in: [...ids] }, organizationId: opts.organizationId, agentId: opts.agentId },
    select: { id: true, storageKey: true, filename: true, contentType: true },
  });
  const files = new Map(rows.map((f) => [f.id, f]));
  const walk = (v: unknown): unknown => {
    const id = resolvedIn(v);
    if (id !== undefined) {
      const f = files.get(id);
      const old = v as Record<string, unknown>;
      if (!f) return { ...old };
      const base = baseOf(old.url as string) ?? opts.baseUrl;
      return {
        ...old,
        ...signDownload({ storageKey: f.storageKey, filename: f.filename, contentType: f.contentType, baseUrl: base }),
      };
    }
    if (Array.isArray(v)) return v.map(walk);
    if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** For workflow file inputs: the file row and a stream of its bytes (same scoping rules). */
export async function openFileStream(
  fileId: string,
  opts: { organizationId: string; agentId: string },
): Promise<{
  file: { id: string; filename: string; contentType: string; sizeBytes: bigint };
  stream: Readable;
}> {
  const ref = { fileId, field: "file_id" };
  if (!FILE_ID_RE.test(fileId)) throw malformedId(ref);
  const db = await prisma();
  const row = await db.file.findFirst({
    where: { id: fileId, organizationId: opts.organizationId, agentId: opts.agentId },
  });
  if (!row) throw notFound(ref);
  const file = { id: row.id, filename: row.filename, contentType: row.contentType, sizeBytes: row.sizeBytes };
  return { file, stream: storage().read(row.storageKey) };
}
