// Resumable uploads (tus 1.0) at /api/agents/{agent_id}/upload/tus through real HTTP, driven by the
// official tus-js-client where a client would be: the protocol's answers and errors, Access Key
// auth and tenancy, a finished upload as an ordinary fi_ file (attachments, workflow file input),
// termination. On servers of their own: tus-limits.test.ts (UPLOAD_MAX_BYTES, expiry and its
// cleanup) and tus-resume.test.ts (a 200 MB upload resumed across a SIGKILL of the server).
import { randomBytes } from "node:crypto";
import * as tus from "tus-js-client";
import { beforeAll, describe, expect, it } from "vitest";
import { createAgent, ctx, ECHO_AGENT, expectError, mintKey } from "./helpers";
import { storedBytes, tusBytesExist, tusStateExists } from "./s3-server";
import {
  clientUpload,
  CSV,
  CSV_WORKFLOW,
  FILE_ID,
  finishedRun,
  OCTETS,
  req,
  tusApi,
  UPLOAD_PATH,
  uploadIdOf,
  V,
  waitFor,
} from "./tus-helpers";

describe("tus: protocol, auth and the finished upload as a file (shared server)", () => {
  let key: string;
  let noInvokeKey: string;
  let otherOrgKey: string;
  let agentId: string;
  let siblingAgent: string;
  let workflowAgent: string;
  let otherOrgAgent: string;
  const base = () => ctx().baseUrl;
  const api = tusApi(base, () => key);

  beforeAll(async () => {
    const { orgA, orgB } = ctx();
    key = (await mintKey(orgA)).key;
    noInvokeKey = (await mintKey(orgA, [])).key;
    otherOrgKey = (await mintKey(orgB)).key;
    agentId = (await createAgent(orgA, ECHO_AGENT)).agent_id;
    siblingAgent = (await createAgent(orgA, ECHO_AGENT)).agent_id;
    workflowAgent = (await createAgent(orgA, CSV_WORKFLOW)).agent_id;
    otherOrgAgent = (await createAgent(orgB, ECHO_AGENT)).agent_id;
  });

  it("OPTIONS answers Tus-Version, Tus-Extension and Tus-Max-Size", async () => {
    const res = await req(base(), "OPTIONS", api.endpoint(agentId));
    expect(res.status).toBe(204);
    expect(res.headers.get("tus-version")).toBe("1.0.0");
    expect(res.headers.get("tus-extension")!.split(",").sort()).toEqual(
      ["creation", "creation-with-upload", "expiration", "termination"].sort(),
    );
    expect(res.headers.get("tus-max-size")).toBe(String(50 * 1024 ** 3)); // the default UPLOAD_MAX_BYTES
  });

  describe("tus-js-client, and the finished upload as an fi_ file", () => {
    const content = Buffer.from(CSV + Array.from({ length: 297 }, (_, i) => `${i + 4},1,1\n`).join(""));
    let url: string;
    let fileId: string;

    beforeAll(async () => {
      const up = clientUpload({
        base: base(),
        key,
        agentId: workflowAgent,
        source: content,
        chunkSize: 1024, // several PATCHes
        metadata: { filename: "orders.csv", filetype: "text/csv" },
      });
      ({ url, fileId } = (await up.done) as { url: string; fileId: string });
      url = new URL(url).pathname;
    });

    it("uploads in chunks and names the file in the last PATCH's Upload-File-Id", async () => {
      expect(url).toMatch(UPLOAD_PATH);
      expect(fileId).toMatch(FILE_ID);
      expect((await storedBytes(ctx().target, `tus/${uploadIdOf(url)}`))?.equals(content)).toBe(true);
    });

    it("GET answers the upload's file object, the same fi_ id every time; HEAD carries it too", async () => {
      const first = await api.get(url);
      expect(first.status, first.text).toBe(200);
      expect(first.body).toEqual({
        file_id: fileId,
        size_bytes: content.length,
        content_type: "text/csv",
        filename: "orders.csv",
      });
      expect((await api.get(url)).body.file_id).toBe(fileId);
      const head = await api.head(url);
      expect(head.status).toBe(200);
      expect(head.headers.get("upload-file-id")).toBe(fileId);
      expect(head.headers.get("upload-offset")).toBe(String(content.length));
      expect(head.headers.get("upload-length")).toBe(String(content.length));
    });

    it("a repeated last PATCH (a client that missed the answer) gives the same fi_ id", async () => {
      const again = await api.patch(url, content.length, Buffer.alloc(0));
      expect(again.status, again.text).toBe(204);
      expect(again.headers.get("upload-file-id")).toBe(fileId);
    });

    it("works as a workflow file input (CSV items)", async () => {
      const res = await req(base(), "POST", `/api/agents/webhook/${workflowAgent}`, {
        key,
        json: { rows: { file_id: fileId } },
      });
      expect(res.status, res.text).toBe(202);
      const run = await finishedRun(base(), key, workflowAgent, res.body.run_id);
      expect(run.status, JSON.stringify(run.error)).toBe("completed");
      expect(run.item_counts).toMatchObject({ total: 300, completed: 300, failed: 0 });
      const out = await fetch(run.output_files[0].url);
      expect(out.status).toBe(200);
      const lines = (await out.text())
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(lines.slice(0, 3).map((l) => l.result.total)).toEqual([7, 0, 1]);
    });

    it("works as a conversational attachment (the echo reply names the file)", async () => {
      const up = clientUpload({
        base: base(),
        key,
        agentId,
        source: Buffer.from("hello, resumable world\n"),
        metadata: { filename: "note.txt", filetype: "text/plain" },
      });
      const { fileId: noteId } = await up.done;
      const res = await req(base(), "POST", `/api/agents/webhook/${agentId}`, {
        key,
        json: { message: "see file", attachments: [{ file_id: noteId }] },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.response).toBe("Echo: see file [attachments: note.txt]");
    });

    it("is refused (400 file_not_found) for another agent of the organization and for another organization", async () => {
      const ref = { message: "x", attachments: [{ file_id: fileId }] };
      expectError(
        await req(base(), "POST", `/api/agents/webhook/${siblingAgent}`, { key, json: ref }),
        400,
        "file_not_found",
      );
      expectError(
        await req(base(), "POST", `/api/agents/webhook/${otherOrgAgent}`, { key: otherOrgKey, json: ref }),
        400,
        "file_not_found",
      );
    });

    it("refuses DELETE of a finished upload, and its file keeps working", async () => {
      const res = await api.del(url);
      expect(res.status).toBe(400);
      expect(await tusBytesExist(ctx().target, uploadIdOf(url))).toBe(true);
      expect((await api.get(url)).body.file_id).toBe(fileId);
      const run = await req(base(), "POST", `/api/agents/webhook/${workflowAgent}`, {
        key,
        json: { rows: { file_id: fileId } },
      });
      expect(run.status).toBe(202);
      expect((await finishedRun(base(), key, workflowAgent, run.body.run_id)).status).toBe("completed");
    });
  });

  describe("protocol errors", () => {
    let url: string;

    beforeAll(async () => {
      const made = await api.create(agentId, 100, { filename: "p.bin" });
      expect(made.res.status, made.res.text).toBe(201);
      url = made.url;
      expect((await api.patch(url, 0, randomBytes(40))).status).toBe(204);
    });

    it("answers 201 with a Location for the agent and Upload-Expires; HEAD reports the offset", async () => {
      expect(url).toMatch(UPLOAD_PATH);
      expect(url.startsWith(`/api/agents/${agentId}/`)).toBe(true);
      const head = await api.head(url);
      expect(head.status).toBe(200);
      expect(head.headers.get("upload-offset")).toBe("40");
      expect(head.headers.get("upload-length")).toBe("100");
      expect(head.headers.get("cache-control")).toBe("no-store");
      expect(head.headers.get("upload-file-id")).toBeNull();
    });

    it("409 for a PATCH at the wrong offset, and the upload is unchanged", async () => {
      for (const offset of [0, 39, 41, 100]) {
        const res = await api.patch(url, offset, randomBytes(10));
        expect(res.status, `offset ${offset}`).toBe(409);
      }
      expect(await api.offset(url)).toBe(40);
    });

    it("412 without Tus-Resumable, or with a version the server does not speak (naming Tus-Version)", async () => {
      const versions: Record<string, string>[] = [{}, { "tus-resumable": "0.2.2" }, { "tus-resumable": "2.0.0" }];
      for (const headers of versions) {
        for (const res of [
          await req(base(), "POST", api.endpoint(agentId), { key, headers: { ...headers, "upload-length": "10" } }),
          await req(base(), "HEAD", url, { key, headers }),
          await req(base(), "PATCH", url, {
            key,
            headers: { ...headers, "content-type": "application/offset+octet-stream", "upload-offset": "40" },
            body: randomBytes(5),
          }),
          await req(base(), "DELETE", url, { key, headers }),
        ]) {
          expect(res.status, JSON.stringify(headers)).toBe(412);
          expect(res.headers.get("tus-version")).toBe("1.0.0");
        }
      }
      expect(await api.offset(url)).toBe(40);
    });

    it("409 upload_incomplete from GET while bytes are missing", async () => {
      const res = await api.get(url);
      expectError(res, 409, "upload_incomplete");
      expect(res.body.error.details).toEqual({ offset: 40, length: 100 });
    });

    it("413 for a PATCH past the upload's length; the upload is unchanged", async () => {
      expect((await api.patch(url, 40, randomBytes(61))).status).toBe(413);
      expect(await api.offset(url)).toBe(40);
    });

    it("refuses creation without Upload-Length (400; deferred lengths: 501) and with 0 (400 empty_file)", async () => {
      const noLength = await req(base(), "POST", api.endpoint(agentId), { key, headers: V });
      expect(noLength.status).toBe(400);
      const deferred = await req(base(), "POST", api.endpoint(agentId), {
        key,
        headers: { ...V, "upload-defer-length": "1" },
      });
      expect(deferred.status).toBe(501); // creation-defer-length is not offered
      const empty = await api.create(agentId, 0);
      expectError(empty.res, 400, "empty_file");
    });

    it("refuses a PATCH without the tus Content-Type (415, with one or another), as tus 1.0 says; unchanged", async () => {
      const patch = (headers: Record<string, string>) =>
        req(base(), "PATCH", url, { key, headers: { ...V, "upload-offset": "40", ...headers }, body: randomBytes(5) });
      expectError(await patch({}), 415, "unsupported_media_type");
      expectError(await patch({ "content-type": "application/octet-stream" }), 415, "unsupported_media_type");
      expect(await api.offset(url)).toBe(40);
    });

    it("a query string on the upload URL does not change which upload is addressed", async () => {
      const other = await api.create(siblingAgent, 50);
      // The sibling's upload, addressed through this upload's URL plus a query naming the sibling's id.
      const res = await api.patch(`${url}?via=/${uploadIdOf(other.url)}`, 40, randomBytes(10));
      expect(res.status, res.text).toBe(204);
      expect(res.headers.get("upload-offset")).toBe("50");
      expect(await api.offset(url)).toBe(50);
      expect(await api.offset(other.url)).toBe(0);
    });

    it("404 not_found for a path below an upload", async () => {
      expectError(await req(base(), "GET", `${url}/x`, { key }), 404, "not_found");
      expect((await req(base(), "PATCH", `${url}/x`, { key, headers: OCTETS, body: "x" })).status).toBe(404);
    });

    it("405 with the Allow of the URL: the collection creates, an upload's URL is read, continued and deleted", async () => {
      const atUpload = "DELETE, GET, HEAD, OPTIONS, PATCH";
      const atCollection = "OPTIONS, POST";
      const cases: [string, string, string][] = [
        ["POST", url, atUpload], // answered by the route (412 or 404 before)
        ["PUT", url, atUpload], // answered by the server in front of Next (its Allow listed POST before)
        ["GET", api.endpoint(workflowAgent), atCollection],
        ["HEAD", api.endpoint(workflowAgent), atCollection],
        ["PATCH", api.endpoint(workflowAgent), atCollection],
        ["DELETE", api.endpoint(workflowAgent), atCollection],
        ["PUT", api.endpoint(workflowAgent), atCollection],
      ];
      for (const [method, at, allow] of cases) {
        const headers = method === "PATCH" ? { ...OCTETS, "upload-offset": "0" } : { ...V, "upload-length": "5" };
        const res = await req(base(), method, at, { key, headers, body: method === "PATCH" ? "x" : undefined });
        expect([method, at, res.status, res.headers.get("allow")]).toEqual([method, at, 405, allow]);
        if (method !== "HEAD") expect(res.body).toMatchObject({ error: { code: "method_not_allowed" } });
      }
      expect(await api.offset(url)).toBeGreaterThan(0); // nothing of the upload changed
    });
  });

  describe("auth and tenancy", () => {
    let url: string;

    beforeAll(async () => {
      const made = await api.create(agentId, 100, { filename: "mine.bin" });
      url = made.url;
      expect((await api.patch(url, 0, randomBytes(30))).status).toBe(204);
    });

    const byMethod = (k: string | undefined, target: string) =>
      [
        ["HEAD", () => req(base(), "HEAD", target, { key: k, headers: V })],
        [
          "PATCH",
          () =>
            req(base(), "PATCH", target, {
              key: k,
              headers: { ...OCTETS, "upload-offset": "30" },
              body: randomBytes(10),
            }),
        ],
        ["GET", () => req(base(), "GET", target, { key: k })],
        ["DELETE", () => req(base(), "DELETE", target, { key: k, headers: V })],
      ] as const;

    it("401 without a key (every method, creation included)", async () => {
      expectError(
        await req(base(), "POST", api.endpoint(agentId), { headers: { ...V, "upload-length": "5" } }),
        401,
        "unauthorized",
      );
      for (const [method, send] of byMethod(undefined, url)) {
        const res = await send();
        if (method === "HEAD") expect(res.status).toBe(401);
        else expectError(res, 401, "unauthorized");
      }
      expectError(
        await req(base(), "PATCH", url, {
          key: `ak_${"x".repeat(43)}`,
          headers: { ...OCTETS, "upload-offset": "30" },
          body: randomBytes(5),
        }),
        401,
        "unauthorized",
      );
      expect(await api.offset(url)).toBe(30);
    });

    it("403 forbidden for a key without agents:invoke", async () => {
      expectError((await api.create(agentId, 5, { k: noInvokeKey })).res, 403, "forbidden");
      expectError(await api.get(url, noInvokeKey), 403, "forbidden");
    });

    it("404 agent_not_found for another organization's key on the upload URL (HEAD, PATCH, GET, DELETE); unchanged", async () => {
      expectError((await api.create(agentId, 5, { k: otherOrgKey })).res, 404, "agent_not_found");
      for (const [method, send] of byMethod(otherOrgKey, url)) {
        const res = await send();
        if (method === "HEAD") expect(res.status).toBe(404);
        else expectError(res, 404, "agent_not_found");
      }
      expect(await api.offset(url)).toBe(30);
    });

    it("404 upload_not_found for the upload under another organization's agent, or another agent of ours", async () => {
      for (const [k, agent] of [
        [otherOrgKey, otherOrgAgent],
        [key, siblingAgent],
      ] as const) {
        const target = `/api/agents/${agent}/upload/tus/${uploadIdOf(url)}`;
        for (const [method, send] of byMethod(k, target)) {
          const res = await send();
          if (method === "HEAD") expect(res.status).toBe(404);
          else expectError(res, 404, "upload_not_found");
        }
      }
      expect(await api.offset(url)).toBe(30);
      expect(await tusBytesExist(ctx().target, uploadIdOf(url))).toBe(true);
    });

    it("404 upload_not_found for an id that is not an upload id", async () => {
      for (const id of ["upl_doesnotexist", "nope", "upl_a.b", "upl_a%2Fb", `upl_${"x".repeat(65)}`]) {
        expectError(await api.get(`/api/agents/${agentId}/upload/tus/${id}`), 404, "upload_not_found");
      }
    });
  });

  describe("creation-with-upload and termination", () => {
    it("POST with the whole body finishes the upload at once (201, Upload-Offset, Upload-File-Id)", async () => {
      const bytes = randomBytes(5000);
      const made = await api.create(agentId, bytes.length, { filename: "whole.bin", body: bytes });
      expect(made.res.status, made.res.text).toBe(201);
      expect(made.res.headers.get("upload-offset")).toBe("5000");
      const fileId = made.res.headers.get("upload-file-id");
      expect(fileId).toMatch(FILE_ID);
      expect((await api.get(made.url)).body).toEqual({
        file_id: fileId,
        size_bytes: 5000,
        content_type: "application/octet-stream",
        filename: "whole.bin",
      });
    });

    it("POST with part of the body, then PATCH the rest (tus-js-client uploadDataDuringCreation too)", async () => {
      const bytes = randomBytes(3000);
      const made = await api.create(agentId, bytes.length, { body: bytes.subarray(0, 1000) });
      expect(made.res.status).toBe(201);
      expect(made.res.headers.get("upload-offset")).toBe("1000");
      expect(made.res.headers.get("upload-file-id")).toBeNull();
      const rest = await api.patch(made.url, 1000, bytes.subarray(1000));
      expect(rest.status).toBe(204);
      expect(rest.headers.get("upload-file-id")).toMatch(FILE_ID);
      expect((await storedBytes(ctx().target, `tus/${uploadIdOf(made.url)}`))?.equals(bytes)).toBe(true);

      let upload!: tus.Upload;
      const done = new Promise<string | undefined>((resolve, reject) => {
        upload = new tus.Upload(randomBytes(2500), {
          endpoint: `${base()}${api.endpoint(agentId)}`,
          headers: { authorization: `Bearer ${key}` },
          uploadDataDuringCreation: true,
          chunkSize: 1000,
          retryDelays: null,
          onSuccess: ({ lastResponse }) => resolve(lastResponse.getHeader("Upload-File-Id")),
          onError: reject,
        });
        upload.start();
      });
      expect(await done).toMatch(FILE_ID);
    });

    it("DELETE of an unfinished upload removes it: its bytes, and then HEAD, GET and PATCH answer 404", async () => {
      const made = await api.create(agentId, 100);
      expect((await api.patch(made.url, 0, randomBytes(10))).status).toBe(204);
      const id = uploadIdOf(made.url);
      expect(await tusBytesExist(ctx().target, id)).toBe(true);
      const res = await api.del(made.url);
      expect(res.status).toBe(204);
      expect(await tusBytesExist(ctx().target, id)).toBe(false);
      expect(await tusStateExists(ctx().target, id)).toBe(false);
      expect([404, 410]).toContain((await api.head(made.url)).status);
      expectError(await api.get(made.url), 404, "upload_not_found");
      expect([404, 410]).toContain((await api.patch(made.url, 10, randomBytes(5))).status);
      expect([404, 410]).toContain((await api.del(made.url)).status);
    });

    it("tus-js-client's abort(true) terminates an upload", async () => {
      let terminated: Promise<void> | undefined;
      const up = clientUpload({
        base: base(),
        key,
        agentId,
        source: randomBytes(64 * 1024),
        chunkSize: 16 * 1024,
        // Between two PATCHes: the client sends no further chunk once aborted.
        onChunkComplete: () => (terminated ??= up.upload.abort(true)),
      });
      up.done.catch(() => undefined);
      await waitFor("a first chunk", async () => terminated !== undefined);
      await terminated;
      expect([404, 410]).toContain((await api.head(new URL(up.upload.url!).pathname)).status);
    });
  });
});
