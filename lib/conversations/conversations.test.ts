import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent, Message } from "../generated/prisma/client";
import { newId } from "../ids";
import { resetEnvCache } from "../env";
import { stopQueue } from "../queue";
import { signDownload, verifyDownload } from "../files/signing";
import { startFakeUpstream } from "../../test-support/runtime";
import { openTestDatabase } from "../../test-support/db";
import { MAX_RECOVERIES, recoverReplies } from "./recovery";
import { runReply, type ReplyTask } from "./replies";
import { ListMessagesQuery, ListSessionsQuery } from "./schemas";
import { findVisibleMessage } from "./store";
import { getMessage, getSession, listMessages, listSessions } from "./sessions";
import { acceptMessage } from "./trigger";

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let orgId: string;
let projectId: string;

beforeAll(async () => {
  process.env.SIGNING_SECRET ??= "unit-test-signing-secret";
  // Fake upstreams listen on 127.0.0.1, a loopback address the upstream guard refuses by default.
  process.env.ALLOW_PRIVATE_UPSTREAMS = "true";
  resetEnvCache();
  db = await openTestDatabase();
  orgId = newId("org");
  projectId = newId("proj");
  await db.prisma.organization.create({ data: { id: orgId, name: `conv-${orgId}` } });
  await db.prisma.project.create({ data: { id: projectId, organizationId: orgId, name: "default" } });
});
afterAll(async () => {
  await stopQueue();
  await db.dispose();
});

async function agent(runtime: object = { type: "echo" }, kind: "conversational" | "workflow" = "conversational") {
  return db.prisma.agent.create({
    data: { id: newId("agt"), organizationId: orgId, projectId, name: "a", kind, runtime },
  });
}

async function session(a: Agent, data: { environment?: "production" | "draft"; lastMessageAt?: Date } = {}) {
  return db.prisma.session.create({
    data: { id: newId("sess"), organizationId: orgId, projectId, agentId: a.id, ...data },
  });
}

/** A user message and its pending assistant reply, as the trigger stores them. */
async function pendingReply(a: Agent, sessionId: string, content = "hello there") {
  const now = new Date();
  const common = { sessionId, agentId: a.id, organizationId: orgId, projectId };
  const user = await db.prisma.message.create({
    data: {
      ...common,
      id: newId("msg"),
      role: "user",
      status: "completed",
      content,
      payload: { message: content },
      createdAt: now,
    },
  });
  return db.prisma.message.create({
    data: {
      ...common,
      id: newId("msg"),
      role: "assistant",
      status: "processing",
      replyToId: user.id,
      createdAt: new Date(now.getTime() + 1),
    },
  });
}

const sessionsQuery = ListSessionsQuery.parse({});
const messagesQuery = ListMessagesQuery.parse({});

describe("sessions service", () => {
  it("never shows draft sessions, in lists or by id", async () => {
    const a = await agent();
    const prod = await session(a);
    const draft = await session(a, { environment: "draft", lastMessageAt: new Date(Date.now() + 60_000) });
    const list = await listSessions({ agent: a, query: sessionsQuery });
    expect(list.sessions.map((s) => s.session_id)).toEqual([prod.id]);
    await expect(getSession({ agent: a, sessionId: draft.id })).rejects.toMatchObject({ code: "session_not_found" });
    await expect(listMessages({ agent: a, sessionId: draft.id, query: messagesQuery })).rejects.toMatchObject({
      code: "session_not_found",
    });
  });

  it("orders sessions by last activity, newest first, and filters by since", async () => {
    const a = await agent();
    const t = Date.now();
    const old = await session(a, { lastMessageAt: new Date(t - 3000) });
    const mid = await session(a, { lastMessageAt: new Date(t - 2000) });
    const recent = await session(a, { lastMessageAt: new Date(t - 1000) });
    const all = await listSessions({ agent: a, query: sessionsQuery });
    expect(all.sessions.map((s) => s.session_id)).toEqual([recent.id, mid.id, old.id]);
    const since = await listSessions({
      agent: a,
      query: ListSessionsQuery.parse({ since: new Date(t - 2000).toISOString() }),
    });
    expect(since.sessions.map((s) => s.session_id)).toEqual([recent.id]);
  });

  it("refuses session routes on a workflow agent before looking up the session", async () => {
    const wf = await agent({ type: "echo" }, "workflow");
    await expect(getSession({ agent: wf, sessionId: "sess_x" })).rejects.toMatchObject({
      code: "runtime_not_applicable",
    });
  });

  it("reports a message of another session as message_not_found", async () => {
    const a = await agent();
    const s1 = await session(a);
    const s2 = await session(a);
    const reply = await pendingReply(a, s1.id);
    await expect(getMessage({ agent: a, sessionId: s2.id, messageId: reply.id })).rejects.toMatchObject({
      code: "message_not_found",
    });
  });
});

/** The reply task of a pending reply made by pendingReply (a new producer's view of it). */
const task = (a: Agent, reply: Message, message = "hello there"): ReplyTask => ({
  messageId: reply.id,
  sessionId: reply.sessionId,
  acceptedAt: reply.createdAt,
  agent: { ...a, servedVersion: a.publishedVersion },
  message,
  attachments: [],
  metadata: {},
  historyBefore: new Date(reply.createdAt.getTime() - 1),
});

describe("the polling read (raw SQL)", () => {
  it("reads every field exactly as Prisma does, for a processing, a completed and an error reply", async () => {
    const a = await agent();
    const s = await session(a);
    const viaPrisma = (id: string) => db.prisma.message.findUniqueOrThrow({ where: { id } });
    const viaSql = (id: string) =>
      findVisibleMessage({ messageId: id, sessionId: s.id, agentId: a.id, organizationId: orgId });
    const processing = await pendingReply(a, s.id, "still working");
    expect(await viaSql(processing.id)).toEqual(await viaPrisma(processing.id));
    await runReply(task(a, processing, "still working"));
    expect(await viaSql(processing.id)).toEqual(await viaPrisma(processing.id));
    const failed = await db.prisma.message.update({
      where: { id: (await pendingReply(a, s.id, "x")).id },
      data: {
        status: "error",
        error: { code: "message_processing_failed", message: "boom" },
        cost: 0.125,
        completedAt: new Date("2026-01-02T03:04:05.678Z"),
        leaseUntil: new Date("2026-01-02T03:04:06.789Z"),
      },
    });
    expect(await viaSql(failed.id)).toEqual(failed);
    expect((await viaSql(failed.id))?.completedAt?.toISOString()).toBe("2026-01-02T03:04:05.678Z");
    // Another agent's view, another session, or a draft session: nothing.
    const other = await agent();
    expect(
      await findVisibleMessage({ messageId: failed.id, sessionId: s.id, agentId: other.id, organizationId: orgId }),
    ).toBeUndefined();
    const draft = await session(a, { environment: "draft" });
    const hidden = await pendingReply(a, draft.id, "draft");
    expect(
      await findVisibleMessage({ messageId: hidden.id, sessionId: draft.id, agentId: a.id, organizationId: orgId }),
    ).toBeUndefined();

    // Polls that arrive together are read by one statement (lib/db/batch.ts): each gets its own answer.
    const together = await Promise.all([
      viaSql(processing.id),
      findVisibleMessage({ messageId: failed.id, sessionId: s.id, agentId: other.id, organizationId: orgId }),
      viaSql(failed.id),
      findVisibleMessage({ messageId: hidden.id, sessionId: draft.id, agentId: a.id, organizationId: orgId }),
      viaSql("msg_none"),
      viaSql(processing.id),
    ]);
    const processed = await viaPrisma(processing.id);
    expect(together).toEqual([processed, undefined, failed, undefined, undefined, processed]);
  });
});

describe("replies", () => {
  it("stores exactly one reply and counts its tokens once when producers race", async () => {
    const a = await agent();
    const s = await session(a);
    const reply = await pendingReply(a, s.id, "one two three");
    const t = task(a, reply, "one two three");
    const outcomes = await Promise.all([runReply(t), runReply(t)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["completed", "taken"]);
    expect((await runReply(t)).status).toBe("taken");
    const done = await getMessage({ agent: a, sessionId: s.id, messageId: reply.id });
    expect(done).toMatchObject({ status: "completed", content: "Echo: one two three", model: "echo", error: null });
    expect(done.token_usage).toEqual({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    const record = await getSession({ agent: a, sessionId: s.id });
    expect(record.token_usage).toEqual({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
  });

  it("passes earlier completed messages of the session as history", async () => {
    const a = await agent();
    const s = await session(a);
    const first = await pendingReply(a, s.id, "first words");
    await runReply(task(a, first, "first words"));
    const second = await pendingReply(a, s.id, "again");
    await runReply(task(a, second, "again"));
    const done = await getMessage({ agent: a, sessionId: s.id, messageId: second.id });
    // echo counts the words of the message plus those of the history as prompt tokens
    expect(done.token_usage?.prompt_tokens).toBe(1 + 2 + 3); // "again" + "first words" + "Echo: first words"
  });

  it("ends a non-retryable runtime failure as error at once, without leaking the runtime's text", async () => {
    const a = await agent({ type: "echo", fail: "error" });
    const s = await session(a);
    const reply = await pendingReply(a, s.id);
    expect((await runReply(task(a, reply))).status).toBe("error");
    const done = await getMessage({ agent: a, sessionId: s.id, messageId: reply.id });
    expect(done.status).toBe("error");
    expect(done.error?.code).toBe("message_processing_failed");
    expect(done.error?.message).not.toMatch(/fail hook/);
    expect(done.token_usage).toBeNull();
  });

  it("retries an upstream failure that may pass, then stores the reply", async () => {
    const upstream = await startFakeUpstream();
    try {
      let calls = 0;
      upstream.answer(() => (++calls < 3 ? { status: 503, text: "busy" } : { json: { content: "third time" } }));
      const a = await agent({ type: "http", url: `${upstream.url}/reply`, timeout_ms: 5_000 });
      const s = await session(a);
      const reply = await pendingReply(a, s.id);
      expect((await runReply(task(a, reply))).status).toBe("completed");
      expect(calls).toBe(3);
      const done = await getMessage({ agent: a, sessionId: s.id, messageId: reply.id });
      expect(done).toMatchObject({ status: "completed", content: "third time" });
    } finally {
      await upstream.close();
    }
  });

  it("ends the reply as error once every attempt failed, so that a 502 upstream_error is final", async () => {
    const upstream = await startFakeUpstream();
    try {
      upstream.answer(() => ({ status: 500, text: "down" }));
      const a = await agent({ type: "http", url: `${upstream.url}/reply`, timeout_ms: 5_000 });
      const s = await session(a);
      const reply = await pendingReply(a, s.id);
      expect((await runReply(task(a, reply))).status).toBe("error");
      expect(upstream.requests).toHaveLength(3);
      const done = await getMessage({ agent: a, sessionId: s.id, messageId: reply.id });
      expect(done).toMatchObject({ status: "error", error: { code: "message_processing_failed" } });
    } finally {
      await upstream.close();
    }
  });
});

describe("recovery", () => {
  it("takes over a reply whose lease ran out, leaves a held one alone, and gives up after three takeovers", async () => {
    const a = await agent();
    const s = await session(a);
    const orphan = await pendingReply(a, s.id, "anyone there");
    const held = await pendingReply(a, s.id, "still mine");
    const hopeless = await pendingReply(a, s.id, "cursed");
    const now = new Date();
    await db.prisma.message.update({ where: { id: orphan.id }, data: { leaseUntil: new Date(now.getTime() - 1) } });
    await db.prisma.message.update({ where: { id: held.id }, data: { leaseUntil: new Date(now.getTime() + 60_000) } });
    await db.prisma.message.update({
      where: { id: hopeless.id },
      data: { leaseUntil: new Date(now.getTime() - 1), recoveries: MAX_RECOVERIES },
    });
    // Other tests of this file left replies without a lease: only these three matter here.
    const claimed = await recoverReplies(now);
    expect(claimed).toEqual(expect.arrayContaining([orphan.id, hopeless.id]));
    expect(claimed).not.toContain(held.id);
    const deadline = Date.now() + 10_000;
    let state = await db.prisma.message.findUniqueOrThrow({ where: { id: orphan.id } });
    while (state.status === "processing" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      state = await db.prisma.message.findUniqueOrThrow({ where: { id: orphan.id } });
    }
    expect(state).toMatchObject({ status: "completed", content: "Echo: anyone there", recoveries: 1 });
    expect(await db.prisma.message.findUniqueOrThrow({ where: { id: held.id } })).toMatchObject({
      status: "processing",
      recoveries: 0,
    });
    expect(await db.prisma.message.findUniqueOrThrow({ where: { id: hopeless.id } })).toMatchObject({
      status: "error",
      error: { code: "message_processing_failed" },
    });
    // A second sweep takes none of them: the held reply's lease is still good, the others ended.
    const again = await recoverReplies(now);
    for (const id of [orphan.id, held.id, hopeless.id]) expect(again).not.toContain(id);
  });
});

describe("file links handed to the runtime", () => {
  it("are signed again when a reply is recovered: the stored, expired link is never handed on", async () => {
    const upstream = await startFakeUpstream();
    try {
      upstream.answer(() => ({ json: { content: "read" } }));
      const a = await agent({ type: "http", url: `${upstream.url}/reply`, timeout_ms: 5_000 });
      const s = await session(a);
      const fileId = `fi_${"ef".repeat(16)}`;
      const storageKey = `${orgId}/${a.id}/${fileId}`;
      await db.prisma.file.create({
        data: {
          id: fileId,
          organizationId: orgId,
          agentId: a.id,
          filename: "notes.txt",
          contentType: "text/plain",
          sizeBytes: 5,
          storageKey,
        },
      });
      // As the trigger stored it, long ago: the link in the stored message has expired.
      const stale = signDownload({
        storageKey,
        filename: "notes.txt",
        contentType: "text/plain",
        baseUrl: "http://caller.test",
        ttlSeconds: -60,
      });
      const attachment = {
        file_id: fileId,
        filename: "notes.txt",
        content_type: "text/plain",
        size_bytes: 5,
        ...stale,
      };
      const reply = await pendingReply(a, s.id, "read this");
      await db.prisma.message.update({
        where: { id: reply.replyToId! },
        data: { payload: { message: "read this", attachments: [attachment], metadata: { also: attachment } } },
      });
      await db.prisma.message.update({ where: { id: reply.id }, data: { leaseUntil: new Date(Date.now() - 1) } });
      expect(await recoverReplies()).toContain(reply.id);
      const deadline = Date.now() + 10_000;
      while (!upstream.requests.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      type Link = typeof attachment;
      const sent = upstream.requests[0]!.body as { attachments: Link[]; metadata: { also: Link } };
      for (const link of [sent.attachments[0]!, sent.metadata.also]) {
        // Same file, same caller-facing address, a new signature that is good now.
        expect(link).toMatchObject({ file_id: fileId, filename: "notes.txt", size_bytes: 5 });
        expect(link.url.startsWith("http://caller.test/api/files/download?token=")).toBe(true);
        expect(link.url).not.toBe(stale.url);
        expect(Date.parse(link.url_expires_at)).toBeGreaterThan(Date.now());
        expect(verifyDownload(new URL(link.url).searchParams.get("token")!).storageKey).toBe(storageKey);
      }
      expect(() => verifyDownload(new URL(stale.url).searchParams.get("token")!)).toThrow(
        expect.objectContaining({ code: "url_expired" }),
      );
      let done = await db.prisma.message.findUniqueOrThrow({ where: { id: reply.id } });
      while (done.status === "processing" && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        done = await db.prisma.message.findUniqueOrThrow({ where: { id: reply.id } });
      }
      expect(done).toMatchObject({ status: "completed", content: "read" });
    } finally {
      await upstream.close();
    }
  });
});

describe("trigger", () => {
  it("stores the whole body, extra fields kept and file references resolved, in the user message", async () => {
    const a = await agent();
    const fileId = `fi_${"ab".repeat(16)}`;
    await db.prisma.file.create({
      data: {
        id: fileId,
        organizationId: orgId,
        agentId: a.id,
        filename: "notes.txt",
        contentType: "text/plain",
        sizeBytes: 12,
        storageKey: `${orgId}/${a.id}/${fileId}`,
      },
    });
    const body = { message: "read this", attachments: [{ file_id: fileId }], ticket: { id: 7 } };
    const { message_id, status } = await acceptMessage({ agent: a, body, baseUrl: "http://svc.test" });
    expect(status).toBe("processing");
    const assistant = await db.prisma.message.findUniqueOrThrow({ where: { id: message_id } });
    const user = await db.prisma.message.findUniqueOrThrow({ where: { id: assistant.replyToId! } });
    expect(user).toMatchObject({ role: "user", status: "completed", content: "read this" });
    expect(user.payload).toEqual({
      message: "read this",
      ticket: { id: 7 },
      attachments: [
        {
          file_id: fileId,
          filename: "notes.txt",
          content_type: "text/plain",
          size_bytes: 12,
          url: expect.stringMatching(/^http:\/\/svc\.test\//),
          url_expires_at: expect.any(String),
        },
      ],
    });
    // The reply was started at once, in this process.
    expect(assistant.role).toBe("assistant");
    expect(["processing", "completed"]).toContain(assistant.status);
    expect(assistant.createdAt.getTime()).toBeGreaterThan(user.createdAt.getTime());
  });
});
