// Resumable uploads on a server of their own with UPLOAD_MAX_BYTES = 1 MiB: the size limits, then
// expiry (unfinished uploads deleted by the worker, finished ones kept).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ECHO_AGENT, expectError } from "./helpers";
import { tusBytesExist, tusStateExists } from "./s3-server";
import { ownServer, type OwnServer } from "./server";
import { clientUpload, FILE_ID, query, req, tusApi, uploadIdOf, waitFor } from "./tus-helpers";

// --- A server of our own: UPLOAD_MAX_BYTES = 1 MiB; then expiry and its cleanup ------------------

describe("tus: limits and expiry (own server)", () => {
  const MAX = 1024 * 1024;
  let own: OwnServer;
  let key: string;
  let agentId: string;
  const api = tusApi(
    () => own.server.baseUrl,
    () => key,
  );

  beforeAll(async () => {
    own = await ownServer("tus-small", { UPLOAD_MAX_BYTES: String(MAX), UPLOAD_CLEANUP_INTERVAL_MS: "500" });
    key = await own.mintKey();
    agentId = await own.createAgent(ECHO_AGENT);
  });

  afterAll(() => own?.dispose());

  describe("UPLOAD_MAX_BYTES", () => {
    it("is announced as Tus-Max-Size", async () => {
      const res = await req(own.server.baseUrl, "OPTIONS", api.endpoint(agentId));
      expect(res.headers.get("tus-max-size")).toBe(String(MAX));
    });

    it("413 for an Upload-Length over it; exactly the limit is accepted", async () => {
      expect((await api.create(agentId, MAX + 1)).res.status).toBe(413);
      expect((await api.create(agentId, MAX)).res.status).toBe(201);
    });

    it("413 for PATCHing past it (with and without Content-Length); the upload keeps its bytes", async () => {
      const { url } = await api.create(agentId, MAX);
      expect((await api.patch(url, 0, randomBytes(MAX - 10))).status).toBe(204);
      expect((await api.patch(url, MAX - 10, randomBytes(11))).status).toBe(413);
      expect(await api.offset(url)).toBe(MAX - 10);
      const chunked = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(randomBytes(64 * 1024));
          c.close();
        },
      });
      expect((await api.patch(url, MAX - 10, chunked)).status).toBe(413);
      expect(await api.offset(url)).toBe(MAX - 10);
      const last = await api.patch(url, MAX - 10, randomBytes(10));
      expect(last.status).toBe(204);
      expect(last.headers.get("upload-file-id")).toMatch(FILE_ID);
    });

    it("413 payload_too_large for a multipart upload over it (declared or streamed); under it works", async () => {
      const send = (size: number) => {
        const form = new FormData();
        form.append("file", new Blob([randomBytes(size)]), "m.bin");
        return req(own.server.baseUrl, "POST", `/api/agents/${agentId}/upload`, { key, body: form });
      };
      const huge = await send(3 * MAX); // Content-Length far over: refused unread
      expectError(huge, 413, "payload_too_large");
      expect(huge.body.error.details).toEqual({ limit_bytes: MAX });
      expectError(await send(MAX + 1), 413, "payload_too_large"); // caught while streaming
      const ok = await send(MAX);
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.size_bytes).toBe(MAX);
    });
  });

  describe("expiry: unfinished uploads are deleted by the worker, finished ones stay", () => {
    let finished: { url: string; fileId: string };
    let unfinished: string;
    const gone = new Set<string>();

    /** Gone: HEAD 404/410, GET 404 upload_not_found (no record), no bytes and no state on disk. */
    const isGone = async (url: string) => {
      const id = uploadIdOf(url);
      const head = await api.head(url);
      const get = await api.get(url);
      return (
        [404, 410].includes(head.status) &&
        get.status === 404 &&
        get.body?.error?.code === "upload_not_found" &&
        !(await tusBytesExist(own.target, id)) &&
        !(await tusStateExists(own.target, id))
      );
    };

    const expectUsable = async (f: { url: string; fileId: string }, size: number) => {
      const head = await api.head(f.url);
      expect(head.status).toBe(200);
      expect(head.headers.get("upload-file-id")).toBe(f.fileId);
      expect((await api.get(f.url)).body).toMatchObject({ file_id: f.fileId, size_bytes: size });
      expect(await tusBytesExist(own.target, uploadIdOf(f.url))).toBe(true);
      const res = await req(own.server.baseUrl, "POST", `/api/agents/webhook/${agentId}`, {
        key,
        json: { message: "still there?", attachments: [{ file_id: f.fileId }] },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.response).toMatch(/\[attachments: /);
    };

    beforeAll(async () => {
      // Made under the default expiry (24 h); the restart below makes them old at once.
      const done = await clientUpload({
        base: own.server.baseUrl,
        key,
        agentId,
        source: randomBytes(20_000),
        chunkSize: 5000,
        metadata: { filename: "kept.bin" },
      }).done;
      finished = { url: new URL(done.url).pathname, fileId: done.fileId! };
      const made = await api.create(agentId, 5000, { filename: "dropped.bin" });
      unfinished = made.url;
      expect((await api.patch(unfinished, 0, randomBytes(1000))).status).toBe(204);
      await own.restart("SIGTERM", { UPLOAD_EXPIRY_HOURS: "0.0003", UPLOAD_CLEANUP_INTERVAL_MS: "500" });
    });

    it("deletes an expired unfinished upload: bytes, state and record", async () => {
      await waitFor("the expired upload to be deleted", () => isGone(unfinished));
      gone.add(uploadIdOf(unfinished));
      if (own.target.databaseUrl) {
        expect(await query(own.target, "SELECT id FROM uploads WHERE id = $1", [uploadIdOf(unfinished)])).toEqual([]);
      }
    });

    it("keeps a finished upload usable past its expiry (HEAD, GET, its bytes, as an attachment)", async () => {
      await expectUsable(finished, 20_000);
    });

    it("under the short expiry: a new unfinished upload goes, one finished at once stays", async () => {
      const whole = await api.create(agentId, 2000, { filename: "whole.bin", body: randomBytes(2000) });
      expect(whole.res.status).toBe(201);
      const quick = { url: whole.url, fileId: whole.res.headers.get("upload-file-id")! };
      expect(quick.fileId).toMatch(FILE_ID);
      const partial = await api.create(agentId, 2000, { body: randomBytes(500) });
      expect(partial.res.status).toBe(201);
      // The partial upload was made after the whole one: once it is gone, a sweep ran after both expired.
      await waitFor("the new unfinished upload to be deleted", () => isGone(partial.url));
      gone.add(uploadIdOf(partial.url));
      await expectUsable(quick, 2000);
    });

    it("the database keeps the finished uploads' records and files, and none of the expired ones", async () => {
      if (!own.target.databaseUrl) await own.server.stop(); // PGlite: one process per data folder
      const uploads = await query<{ id: string; file_id: string | null }>(
        own.target,
        "SELECT id, file_id FROM uploads",
      );
      expect(uploads.filter((u) => gone.has(u.id))).toEqual([]);
      expect(uploads.find((u) => u.id === uploadIdOf(finished.url))?.file_id).toBe(finished.fileId);
      const files = await query<{ id: string }>(own.target, "SELECT id FROM files WHERE storage_key = $1", [
        `tus/${uploadIdOf(finished.url)}`,
      ]);
      expect(files.map((f) => f.id)).toEqual([finished.fileId]);
    });
  });
});
