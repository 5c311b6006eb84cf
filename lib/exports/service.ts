// Exports (docs/api.md, Exports): a member asks for the records of a list (sessions with their
// messages, runs with their items, deliveries, the audit log, or one end user's timeline) as CSV or
// JSON Lines, with optional redaction; the `export` queue job writes the file (./produce.ts); the
// record answers progress and, once it succeeded, a signed link valid 15 minutes.
import type { z } from "zod";
import { audit, type Actor } from "../audit";
import { prisma } from "../db";
import { ApiError } from "../errors";
import { serveStoredFile } from "../files/download";
import type { Export } from "../generated/prisma/client";
import type { Role } from "../generated/prisma/enums";
import { newId } from "../ids";
import { log } from "../log";
import { afterCursor, pageOf } from "../pagination";
import { enqueue, transactionWithJobs } from "../queue";
import { RUN_STATUSES } from "../runs/statuses";
import { storage } from "../storage";
import { signExportToken, verifyExportToken } from "./links";
import { rulesOf } from "./redact";
import { CreateExportBody, ExportFilters, type ExportList, type ExportRecord, type ExportRedaction } from "./schemas";

/** How long an export's file is kept: then the export sweep deletes it. */
export const EXPORT_KEEP_DAYS = 7;

const CONTENT_TYPE = { csv: "text/csv; charset=utf-8", jsonl: "application/x-ndjson" } as const;

/** `<kind>-<export id>.<csv|jsonl>`: made of the export's own words, never of caller input. */
export const fileNameOf = (e: Pick<Export, "id" | "kind" | "format">) =>
  `${e.kind.replace(/_/g, "-")}-${e.id}.${e.format}`;

export function exportRecord(e: Export, link?: { baseUrl: string; path: string }): ExportRecord {
  const downloadable = e.status === "succeeded" && e.storageKey !== null;
  const signed = downloadable && link ? signExportToken({ exportId: e.id, organizationId: e.organizationId }) : null;
  return {
    export_id: e.id,
    kind: e.kind as ExportRecord["kind"],
    format: e.format as ExportRecord["format"],
    status: e.status as ExportRecord["status"],
    filters: ExportFilters.parse(e.filters),
    redact: e.redact as ExportRecord["redact"],
    rules_applied: e.rulesApplied,
    rows_written: e.rowsWritten,
    rows_estimated: e.rowsEstimated,
    size_bytes: e.sizeBytes === null ? null : Number(e.sizeBytes),
    error_code: e.errorCode,
    requested_by: e.requestedByLabel,
    file_name: fileNameOf(e),
    created_at: e.createdAt.toISOString(),
    started_at: e.startedAt?.toISOString() ?? null,
    finished_at: e.finishedAt?.toISOString() ?? null,
    expires_at: e.expiresAt.toISOString(),
    download_url:
      signed && link
        ? `${link.baseUrl.replace(/\/+$/, "")}${link.path.replace("{export_id}", e.id)}?token=${signed.token}`
        : null,
    download_url_expires_at: signed?.expiresAt.toISOString() ?? null,
  };
}

/** Where an answer's download links point: the organization API's download route. */
export interface LinkBase {
  baseUrl: string;
  path: string;
}

/** The download route's path, `{export_id}` filled in by the record. */
export const managementExportLink = (organizationId: string) =>
  `/api/v1/organizations/${organizationId}/exports/{export_id}/download`;

function checkFilters(kind: string, filters: ExportFilters, role: Role) {
  const bad = (field: string, message: string) =>
    new ApiError("invalid_request", `Invalid body: ${field} ${message}`, { fields: [{ field, message }] });
  if (kind === "audit" && role !== "admin")
    throw new ApiError("forbidden", "Exporting the audit log needs the admin role.");
  if (kind === "user_timeline" && !filters.user_id) throw bad("filters.user_id", "is required for a user timeline");
  if (kind === "runs" && filters.status && !(RUN_STATUSES as readonly string[]).includes(filters.status)) {
    throw bad("filters.status", `must be one of ${RUN_STATUSES.join(", ")}`);
  }
  if (kind === "deliveries" && filters.status && !["pending", "delivered", "failed"].includes(filters.status)) {
    throw bad("filters.status", "must be one of pending, delivered, failed");
  }
  if (kind !== "audit" && filters.action) throw bad("filters.action", "filters the audit log only");
  if (kind === "evaluation_cases" && !filters.evaluation_id) {
    throw bad("filters.evaluation_id", "is required for an evaluation's cases");
  }
  if (kind !== "evaluation_cases" && filters.evaluation_id) {
    throw bad("filters.evaluation_id", "filters an evaluation's cases only");
  }
  if (filters.from && filters.to && new Date(filters.from) > new Date(filters.to)) {
    throw bad("filters.to", "must not be before from");
  }
}

/** An evaluation_cases export names an evaluation of the organization. */
async function checkEvaluation(organizationId: string, evaluationId: string) {
  const db = await prisma();
  const found = await db.evaluation.findFirst({ where: { id: evaluationId, organizationId }, select: { id: true } });
  if (!found) {
    throw new ApiError(
      "invalid_request",
      "Invalid body: filters.evaluation_id is not an evaluation of this organization",
      {
        fields: [{ field: "filters.evaluation_id", message: "is not an evaluation of this organization" }],
      },
    );
  }
}

/** Records the request, its audit row and its job in one transaction. */
export async function createExport(opts: {
  organizationId: string;
  role: Role;
  actor: Actor;
  input: z.output<typeof CreateExportBody>;
  link: LinkBase;
}): Promise<ExportRecord> {
  const { input } = opts;
  checkFilters(input.kind, input.filters, opts.role);
  if (input.filters.evaluation_id) await checkEvaluation(opts.organizationId, input.filters.evaluation_id);
  const redact: ExportRedaction = {
    ...input.redact,
    fields: [...new Set(input.redact.fields.map((f) => f.trim()))],
  };
  const id = newId("exp");
  const row = await transactionWithJobs(async (tx) => {
    const created = await tx.export.create({
      data: {
        id,
        organizationId: opts.organizationId,
        kind: input.kind,
        format: input.format,
        filters: input.filters,
        redact,
        rulesApplied: rulesOf(redact),
        requestedById: opts.actor.id ?? null,
        requestedByLabel: opts.actor.label ?? null,
        expiresAt: new Date(Date.now() + EXPORT_KEEP_DAYS * 86_400_000),
      },
    });
    await audit({
      organizationId: opts.organizationId,
      actor: opts.actor,
      action: "export.requested",
      targetType: "export",
      targetId: id,
      data: { kind: input.kind, format: input.format, filters: input.filters, rules_applied: created.rulesApplied },
      tx,
    });
    await enqueue("export", { exportId: id, organizationId: opts.organizationId }, { tx });
    return created;
  });
  return exportRecord(row, opts.link);
}

async function loadExport(organizationId: string, exportId: string, role: Role): Promise<Export> {
  const db = await prisma();
  const row = await db.export.findFirst({ where: { id: exportId, organizationId } });
  // Support members never see audit exports, as they never see the audit log.
  if (!row || (row.kind === "audit" && role !== "admin")) {
    throw new ApiError("export_not_found", "No export with this id in the organization.");
  }
  return row;
}

export async function getExport(opts: {
  organizationId: string;
  exportId: string;
  role: Role;
  link: LinkBase;
}): Promise<ExportRecord> {
  return exportRecord(await loadExport(opts.organizationId, opts.exportId, opts.role), opts.link);
}

/** The organization's exports, newest first, a page at a time (keyset). */
export async function listExports(opts: {
  organizationId: string;
  role: Role;
  limit: number;
  cursor?: string;
  link: LinkBase;
}): Promise<z.output<typeof ExportList>> {
  const db = await prisma();
  const rows = await db.export.findMany({
    where: {
      organizationId: opts.organizationId,
      ...(opts.role === "admin" ? {} : { kind: { not: "audit" } }),
      ...afterCursor("createdAt", opts.cursor),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: opts.limit + 1,
  });
  const page = pageOf(rows, opts.limit, (e) => e.createdAt);
  return {
    exports: page.rows.map((e) => exportRecord(e, opts.link)),
    has_more: page.has_more,
    next_cursor: page.next_cursor,
  };
}

/** The file of a signed link, with an audit row naming who downloaded it. */
export async function downloadExport(opts: {
  organizationId: string;
  exportId: string;
  role: Role;
  token: string;
  actor: Actor;
  range: string | null;
}): Promise<Response> {
  const row = await loadExport(opts.organizationId, opts.exportId, opts.role);
  verifyExportToken({ token: opts.token, exportId: row.id, organizationId: row.organizationId });
  if (row.status === "succeeded" && row.storageKey === null) {
    throw new ApiError("export_expired", "The export's file was deleted after its expiry; export again.", {
      expired_at: row.expiresAt.toISOString(),
    });
  }
  if (row.status !== "succeeded" || !row.storageKey) {
    throw new ApiError("export_not_ready", "The export has not succeeded.", { status: row.status });
  }
  await audit({
    organizationId: opts.organizationId,
    actor: opts.actor,
    action: "export.downloaded",
    targetType: "export",
    targetId: row.id,
    data: { kind: row.kind, format: row.format },
  });
  return serveStoredFile(
    { storageKey: row.storageKey, filename: fileNameOf(row), contentType: CONTENT_TYPE[row.format as "csv" | "jsonl"] },
    opts.range,
  );
}

/** Deletes the files of exports past their expiry (a row of lib/worker/periodic.ts); the rows stay, answering 410. */
export async function deleteExpiredExports(opts: { now?: Date; batch?: number } = {}): Promise<number> {
  const db = await prisma();
  const rows = await db.export.findMany({
    where: { expiresAt: { lte: opts.now ?? new Date() }, storageKey: { not: null } },
    take: opts.batch ?? 100,
    select: { id: true, storageKey: true },
  });
  for (const r of rows) {
    try {
      await storage().remove(r.storageKey!);
      await db.export.update({ where: { id: r.id }, data: { storageKey: null } });
    } catch (err) {
      log.warn({ err: String(err), export_id: r.id }, "export sweep: file not removed");
    }
  }
  return rows.length;
}
