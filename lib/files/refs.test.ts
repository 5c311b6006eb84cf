import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "../db";
import { resetEnvCache } from "../env";
import { ApiError } from "../errors";
import { newFileId, newId } from "../ids";
import { storage } from "../storage";
import { openTestDatabase } from "../../test-support/db";
import { openFileStream, refreshFileUrls, resolveFileRefs } from "./refs";
import { resetSigningKeyCache, verifyDownload } from "./signing";
import { storageKeyFor } from "./upload";

const SAVED = { ...process.env };
const BASE = "https://aws.example.com";
let db: Awaited<ReturnType<typeof openTestDatabase>>;

async function makeAgent(organizationId?: string) {
  const p = await prisma();
  if (!organizationId) {
    organizationId = newId("org");
    await p.organization.create({ data: { id: organizationId, name: organizationId } });
  }
  const project = await p.project.upsert({
    where: { organizationId_name: { organizationId, name: "default" } },
    create: { id: newId("proj"), organizationId, name: "default" },
    update: {},
  });
  const agent = await p.agent.create({
    data: {
      id: newId("agt"),
      organizationId,
      projectId: project.id,
      name: "a",
      kind: "workflow",
      runtime: { type: "echo" },
    },
  });
  return { organizationId, agentId: agent.id };
}

async function makeFile(owner: { organizationId: string; agentId: string }, content = "a,b\n1,2\n") {
  const id = newFileId();
  const storageKey = storageKeyFor({ ...owner, fileId: id });
  await storage().write(storageKey, Readable.from([Buffer.from(content)]));
  await (
    await prisma()
  ).file.create({
    data: {
      id,
      ...owner,
      filename: `${id}.csv`,
      contentType: "text/csv",
      sizeBytes: BigInt(content.length),
      storageKey,
    },
  });
  return id;
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("file references", () => {
  let owner: { organizationId: string; agentId: string };
  let sibling: { organizationId: string; agentId: string };
  let foreign: { organizationId: string; agentId: string };
  let f1: string;
  let f2: string;
  let siblingFile: string;
  let foreignFile: string;
  const opts = () => ({ ...owner, baseUrl: BASE });

  beforeAll(async () => {
    process.env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), "refs-"));
    delete process.env.SIGNING_SECRET;
    resetEnvCache();
    resetSigningKeyCache();
    db = await openTestDatabase();
    owner = await makeAgent();
    sibling = await makeAgent(owner.organizationId);
    foreign = await makeAgent();
    f1 = await makeFile(owner);
    f2 = await makeFile(owner, "x");
    siblingFile = await makeFile(sibling);
    foreignFile = await makeFile(foreign);
  });
  afterAll(async () => {
    await db?.dispose();
    process.env = { ...SAVED };
    resetEnvCache();
    resetSigningKeyCache();
  });

  it("replaces nested and array references by the file's metadata and a signed URL", async () => {
    const input = { attachments: [{ file_id: f1 }, { file_id: f2 }], deep: { a: [{ b: { file_id: f1 } }] }, n: 1 };
    const out = await resolveFileRefs(input, opts());
    expect(out.n).toBe(1);
    const first = out.attachments[0] as unknown as Record<string, unknown>;
    expect(Object.keys(first)).toEqual(["file_id", "filename", "content_type", "size_bytes", "url", "url_expires_at"]);
    expect(first).toMatchObject({ file_id: f1, filename: `${f1}.csv`, content_type: "text/csv", size_bytes: 8 });
    expect(out.attachments[1]).toMatchObject({ file_id: f2, size_bytes: 1 });
    expect(out.deep.a[0]!.b).toMatchObject({ file_id: f1, size_bytes: 8 });
    expect(String(first.url).startsWith(`${BASE}/api/files/download?token=`)).toBe(true);
    const signed = verifyDownload(new URL(String(first.url)).searchParams.get("token")!);
    expect(signed.storageKey).toBe(storageKeyFor({ ...owner, fileId: f1 }));
    expect(Date.parse(String(first.url_expires_at)) - Date.now()).toBeGreaterThan(14 * 60 * 1000);
    // The input is not modified in place.
    expect(input.attachments[0]).toEqual({ file_id: f1 });
  });

  it("resolves a reference that is the whole value", async () => {
    expect(await resolveFileRefs({ file_id: f2 }, opts())).toMatchObject({ file_id: f2, filename: `${f2}.csv` });
  });

  it("leaves bare id strings, objects with extra keys and non-fi_ values alone", async () => {
    const input = {
      bare: f1,
      list: [f1, "fi_"],
      extra: { file_id: f1, note: "keep me" },
      notRef: { file_id: "doc-1" },
      numeric: { file_id: 7 },
      nothing: null,
      flag: true,
    };
    expect(await resolveFileRefs(input, opts())).toEqual(input);
  });

  it("returns values without references unchanged", async () => {
    for (const v of [null, 3, "fi_x", [], {}, [[{ a: 1 }]]]) expect(await resolveFileRefs(v, opts())).toEqual(v);
  });

  it("refuses an unknown id, naming the id and the field", async () => {
    const unknown = newFileId();
    const e = await refusal(resolveFileRefs({ ok: { file_id: f1 }, items: [{ x: { file_id: unknown } }] }, opts()));
    expect([e.status, e.code]).toEqual([400, "file_not_found"]);
    expect(e.details).toEqual({ file_id: unknown, field: "items[0].x" });
  });

  it("refuses a file of another agent of the same organization", async () => {
    const e = await refusal(resolveFileRefs({ doc: { file_id: siblingFile } }, opts()));
    expect([e.code, e.details]).toEqual(["file_not_found", { file_id: siblingFile, field: "doc" }]);
  });

  it("refuses a file of another organization", async () => {
    const e = await refusal(resolveFileRefs({ attachments: [{ file_id: foreignFile }] }, opts()));
    expect([e.code, e.details]).toEqual(["file_not_found", { file_id: foreignFile, field: "attachments[0]" }]);
  });

  it("refuses malformed fi_ ids instead of passing them through", async () => {
    for (const bad of ["fi_", "fi_123", `fi_${"A".repeat(32)}`, `${f1}0`, `fi_${"g".repeat(32)}`]) {
      const e = await refusal(resolveFileRefs({ doc: { file_id: bad } }, opts()));
      expect([e.code, e.details], bad).toEqual(["file_not_found", { file_id: bad, field: "doc" }]);
      expect(e.message, bad).toContain("is not a file id: a file id is fi_ followed by 32 lowercase hexadecimal");
    }
  });

  it("signs resolved files again for the address of their old link, and never a file of another agent", async () => {
    const stale = (id: string, base: string) => ({
      file_id: id,
      filename: "old.csv",
      content_type: "text/csv",
      size_bytes: 8,
      url: `${base}/api/files/download?token=expired.sig`,
      url_expires_at: "2000-01-01T00:00:00.000Z",
    });
    const input = {
      attachments: [stale(f1, "https://caller.example"), stale(siblingFile, BASE), stale(foreignFile, BASE)],
      meta: { doc: { ...stale(f2, BASE), url: "https://elsewhere.example/f.csv" }, ref: { file_id: f1 } },
    };
    const out = await refreshFileUrls(input, { ...owner, baseUrl: BASE });
    const [mine, sib, alien] = out.attachments;
    expect(mine!.url.startsWith("https://caller.example/api/files/download?token=")).toBe(true);
    expect(verifyDownload(new URL(mine!.url).searchParams.get("token")!).storageKey).toBe(
      storageKeyFor({ ...owner, fileId: f1 }),
    );
    expect(Date.parse(mine!.url_expires_at) - Date.now()).toBeGreaterThan(14 * 60 * 1000);
    expect(mine).toMatchObject({ file_id: f1, filename: "old.csv", size_bytes: 8 });
    // Files this agent does not own keep their (dead) links: nothing new is signed for them.
    expect(sib).toEqual(input.attachments[1]);
    expect(alien).toEqual(input.attachments[2]);
    // A link that is not ours gets one for the base given; a bare reference is not a resolved file.
    expect(out.meta.doc.url.startsWith(`${BASE}/api/files/download?token=`)).toBe(true);
    expect(out.meta.ref).toEqual({ file_id: f1 });
    // Not changed in place.
    expect(input.attachments[0]!.url).toBe("https://caller.example/api/files/download?token=expired.sig");
  });

  it("opens a stream of the file's bytes for its own agent only", async () => {
    const { file, stream } = await openFileStream(f1, owner);
    expect(file).toEqual({ id: f1, filename: `${f1}.csv`, contentType: "text/csv", sizeBytes: 8n });
    expect(await text(stream)).toBe("a,b\n1,2\n");
    for (const [id, who] of [
      [f1, sibling],
      [f1, foreign],
      [newFileId(), owner],
      ["fi_bad", owner],
    ] as const) {
      const e = await refusal(openFileStream(id, who));
      expect([e.code, e.details]).toEqual(["file_not_found", { file_id: id, field: "file_id" }]);
    }
  });
});
