// Saved views (docs/console.md, "Saved views"): personal ones are seen by their owner only, shared
// ones by every member of the organization; only the owner, or an admin for a shared view, renames
// or deletes one. Another member's personal view answers 404, as one of another organization does.
import type { z } from "zod";
import { audit, type Actor } from "../audit";
import { prisma } from "../db";
import { ApiError } from "../errors";
import type { Role } from "../generated/prisma/enums";
import type { SavedView } from "../generated/prisma/client";
import { newId } from "../ids";
import { afterCursor, pageOf } from "../pagination";
import {
  checkViewFilters,
  VIEWS_PER_LIST,
  type CreateViewBody,
  type UpdateViewBody,
  type ViewList,
  type ViewPage,
  type ViewRecord,
} from "./schemas";

export interface Viewer {
  organizationId: string;
  userId: string;
  role: Role;
  actor: Actor;
}

const notFound = () => new ApiError("view_not_found", "No saved view with this id.");

function record(v: SavedView, viewer: Viewer): ViewRecord {
  const mine = v.userId === viewer.userId;
  return {
    view_id: v.id,
    list: v.list as ViewList,
    name: v.name,
    filters: v.filters as Record<string, string>,
    shared: v.shared,
    owner_id: v.userId,
    mine,
    editable: mine || (v.shared && viewer.role === "admin"),
    created_at: v.createdAt.toISOString(),
  };
}

export async function listViews(
  viewer: Viewer,
  opts: { list: ViewList; limit: number; cursor?: string },
): Promise<z.output<typeof ViewPage>> {
  const db = await prisma();
  const rows = await db.savedView.findMany({
    where: {
      AND: [
        { organizationId: viewer.organizationId, list: opts.list, OR: [{ userId: viewer.userId }, { shared: true }] },
        afterCursor("createdAt", opts.cursor),
      ],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: opts.limit + 1,
  });
  const page = pageOf(rows, opts.limit, (v) => v.createdAt);
  return {
    views: page.rows.map((v) => record(v, viewer)),
    has_more: page.has_more,
    next_cursor: page.next_cursor,
  };
}

export async function createView(viewer: Viewer, body: CreateViewBody): Promise<ViewRecord> {
  checkViewFilters(body.list, body.filters);
  const db = await prisma();
  const row = await db.$transaction(async (tx) => {
    const count = await tx.savedView.count({
      where: { organizationId: viewer.organizationId, userId: viewer.userId, list: body.list },
    });
    if (count >= VIEWS_PER_LIST) {
      throw new ApiError(
        "too_many_views",
        `You already have ${VIEWS_PER_LIST} saved views of this list: delete one to save another.`,
      );
    }
    const created = await tx.savedView.create({
      data: {
        id: newId("view"),
        organizationId: viewer.organizationId,
        userId: viewer.userId,
        list: body.list,
        name: body.name,
        filters: body.filters,
        shared: body.shared,
      },
    });
    if (created.shared) await auditView(tx, viewer, "saved_view.created", created);
    return created;
  });
  return record(row, viewer);
}

type Tx = Parameters<Parameters<Awaited<ReturnType<typeof prisma>>["$transaction"]>[0]>[0];

const auditView = (
  tx: Tx,
  viewer: Viewer,
  action: "saved_view.created" | "saved_view.updated" | "saved_view.deleted",
  v: SavedView,
) =>
  audit({
    tx,
    organizationId: viewer.organizationId,
    actor: viewer.actor,
    action,
    targetType: "saved_view",
    targetId: v.id,
    data: { list: v.list, name: v.name, owner_id: v.userId },
  });

/** The view if the viewer sees it (404 otherwise) and may change it (403 otherwise). */
async function editableView(tx: Tx, viewer: Viewer, viewId: string): Promise<SavedView> {
  const v = await tx.savedView.findFirst({ where: { id: viewId, organizationId: viewer.organizationId } });
  if (!v || (!v.shared && v.userId !== viewer.userId)) throw notFound();
  if (!record(v, viewer).editable) {
    throw new ApiError("forbidden", "Only the view's owner or an admin may change a shared view.");
  }
  return v;
}

export async function updateView(viewer: Viewer, viewId: string, body: UpdateViewBody): Promise<ViewRecord> {
  const db = await prisma();
  const row = await db.$transaction(async (tx) => {
    const v = await editableView(tx, viewer, viewId);
    if (body.filters) checkViewFilters(v.list as ViewList, body.filters);
    const updated = await tx.savedView.update({
      where: { id: v.id },
      data: {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.filters !== undefined ? { filters: body.filters } : {}),
        ...(body.shared !== undefined ? { shared: body.shared } : {}),
      },
    });
    if (v.shared || updated.shared) await auditView(tx, viewer, "saved_view.updated", updated);
    return updated;
  });
  return record(row, viewer);
}

export async function deleteView(viewer: Viewer, viewId: string): Promise<{ view_id: string; deleted: true }> {
  const db = await prisma();
  await db.$transaction(async (tx) => {
    const v = await editableView(tx, viewer, viewId);
    await tx.savedView.delete({ where: { id: v.id } });
    if (v.shared) await auditView(tx, viewer, "saved_view.deleted", v);
  });
  return { view_id: viewId, deleted: true };
}
