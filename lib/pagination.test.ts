// Keyset pages over a real table (audit_events: newest first by (created_at, id)), with many rows
// sharing an instant: every row exactly once, in order, whatever the page size.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "./ids";
import { afterCursor, afterText, decodeCursor, encodeCursor, pageOf } from "./pagination";
import { openTestDatabase } from "../test-support/db";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db.dispose();
});

describe("keyset pagination", () => {
  it("pages through rows with shared instants exactly once each, in order", async () => {
    const organizationId = newId("org");
    await db.prisma.organization.create({ data: { id: organizationId, name: `pages-${organizationId}` } });
    const base = Date.parse("2026-11-01T00:00:00.000Z");
    // 137 rows on 23 instants (ties of up to 6 rows on one instant).
    await db.prisma.auditEvent.createMany({
      data: Array.from({ length: 137 }, (_, i) => ({
        id: `evt_${String(i).padStart(4, "0")}_${newId("evt")}`,
        organizationId,
        actorType: "system",
        action: "key.created",
        actionGroup: "key",
        targetType: "key",
        targetId: "key_x",
        createdAt: new Date(base + (i % 23) * 1000),
      })),
    });
    const all = await db.prisma.auditEvent.findMany({
      where: { organizationId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    for (const limit of [1, 7, 20, 136, 137, 500]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 200; pages++) {
        const rows = await db.prisma.auditEvent.findMany({
          where: { organizationId, ...afterCursor("createdAt", cursor) },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          take: limit + 1,
        });
        const page = pageOf(rows, limit, (r) => r.createdAt);
        seen.push(...page.rows.map((r) => r.id));
        if (!page.next_cursor) break;
        cursor = page.next_cursor;
      }
      expect(seen, `limit ${limit}`).toEqual(all.map((r) => r.id));
    }
  });

  it("round-trips a cursor and refuses anything else with 400 invalid_request naming cursor", () => {
    const key = { at: new Date("2026-11-27T01:02:03.456Z"), id: "run_abc" };
    expect(decodeCursor(encodeCursor(key))).toEqual(key);
    for (const bad of [
      "x",
      "W10",
      Buffer.from('["yesterday","run_1"]').toString("base64url"),
      Buffer.from("[1,2]").toString("base64url"),
    ]) {
      expect(() => decodeCursor(bad)).toThrow(expect.objectContaining({ code: "invalid_request" }));
    }
  });

  it("continues a list ordered by a unique name after the cursor's name; a cursor without one is refused", () => {
    expect(afterText("name", encodeCursor({ at: "openai-prod", id: "sec_1" }))).toEqual({
      name: { gt: "openai-prod" },
    });
    expect(afterText("name", undefined)).toEqual({});
    for (const bad of [encodeCursor({ at: 15, id: "sec_1" }), Buffer.from('["","sec_1"]').toString("base64url"), "x"]) {
      expect(() => afterText("name", bad)).toThrow(
        expect.objectContaining({
          code: "invalid_request",
          details: { fields: [expect.objectContaining({ field: "cursor" })] },
        }),
      );
    }
  });
});
