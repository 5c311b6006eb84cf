// The bare baseline of bench/api.bench.ts: node:http and the database driver, no framework, no
// validation library, answering the benchmarked requests with the same SQL as the service
// (bench/bare-store.ts):
//   POST /api/agents/webhook/{agent}   accept; the reply (echo, or the http runtime's upstream) is
//                                      produced in this process and written; Prefer: respond-async
//                                      answers 202 at once, else 200 with the reply
//   GET  /api/agents/{agent}/sessions/{session}/messages/{message}
// Every request looks its Access Key up by SHA-256 hash (no cache) and then the agent.
// Env: PORT, HOST, DATABASE_URL or DATA_DIR (its own database), BARE_SEED (JSON, see Seed).
import http from "node:http";
import { ACCESS_KEY_RE, bearerToken, sha256 } from "../lib/auth/secrets";
import { newId } from "../lib/ids";
import { openBareStore, type Accepted, type Agent, type Reply, type Seed } from "./bare-store";

const MAX_BODY = 1024 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

const store = await openBareStore(JSON.parse(process.env.BARE_SEED ?? "{}") as Seed);

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new HttpError(413, "payload_too_large");
    chunks.push(chunk);
  }
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (body && typeof body === "object" && !Array.isArray(body)) return body;
  } catch {
    /* below */
  }
  throw new HttpError(400, "invalid_request");
}

/** Access Key (by hash, every time), its permission, then the agent of the path. */
async function authenticate(req: http.IncomingMessage, agentId: string): Promise<Agent> {
  const raw = bearerToken(req.headers.authorization ?? null);
  if (!raw || !ACCESS_KEY_RE.test(raw)) throw new HttpError(401, "unauthorized");
  const key = await store.findKey(sha256(raw));
  if (!key || key.revoked_at) throw new HttpError(401, "unauthorized");
  if (!key.permissions.includes("agents:invoke")) throw new HttpError(403, "forbidden");
  const agent = await store.findAgent(agentId, key.organization_id);
  if (!agent) throw new HttpError(404, "agent_not_found");
  return agent;
}

const agentIds = (agent: Agent) => ({
  agent_id: agent.id,
  organization_id: agent.organization_id,
  project_id: agent.project_id,
});

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** The reply, as the service's runtimes make it: echo at once, http from the upstream. */
async function produce(agent: Agent, accepted: Accepted, message: string): Promise<Reply> {
  if (agent.runtime.type === "echo") {
    const content = `Echo: ${message}`;
    const [prompt, completion] = [words(message), words(content)];
    return {
      content,
      model: "echo",
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    };
  }
  const upstream = await fetch(agent.runtime.url!, {
    method: "POST",
    headers: { ...agent.runtime.headers, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({
      agent_id: agent.id,
      session_id: accepted.sessionId,
      message_id: accepted.messageId,
      message,
      attachments: [],
      metadata: {},
      history: [],
    }),
    signal: AbortSignal.timeout(agent.runtime.timeout_ms ?? 20_000),
  });
  const reply = (await upstream.json()) as { content?: unknown; model?: unknown };
  if (!upstream.ok || typeof reply.content !== "string") throw new HttpError(502, "upstream_error");
  return {
    content: reply.content,
    model: typeof reply.model === "string" ? reply.model : null,
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

/** Accepts the message; answers at once (Prefer: respond-async) or with the reply. The reply is produced in this process either way. */
async function trigger(req: http.IncomingMessage, res: http.ServerResponse, agentId: string) {
  const agent = await authenticate(req, agentId);
  const body = await readJson(req);
  if (agent.kind !== "conversational") throw new HttpError(400, "runtime_not_applicable");
  if (typeof body.message !== "string" || !body.message) throw new HttpError(400, "invalid_request");
  const message = body.message;
  if (!["echo", "http"].includes(agent.runtime.type)) throw new HttpError(400, "runtime not supported here");
  const accepted = await store.accept(
    agent,
    { sessionId: newId("sess"), userMessageId: newId("msg"), messageId: newId("msg") },
    message,
    body,
  );
  const reply = produce(agent, accepted, message).then(async (r) => ({
    reply: r,
    at: await store.complete(accepted, r),
  }));
  if (/(^|[\s,;])respond-async($|[\s,;])/.test([req.headers.prefer ?? ""].flat().join(","))) {
    reply.catch((err) => console.error(err));
    send(
      res,
      202,
      {
        success: true,
        session_id: accepted.sessionId,
        message_id: accepted.messageId,
        ...agentIds(agent),
        status: "processing",
        timestamp: new Date().toISOString(),
      },
      {
        "preference-applied": "respond-async",
        location: `/api/agents/${agent.id}/sessions/${accepted.sessionId}/messages/${accepted.messageId}`,
      },
    );
    return;
  }
  const done = await reply;
  send(res, 200, {
    success: true,
    session_id: accepted.sessionId,
    message_id: accepted.messageId,
    ...agentIds(agent),
    status: "completed",
    response: done.reply.content,
    files: [],
    token_usage: done.reply.usage,
    processing_time: (done.at.getTime() - accepted.createdAt.getTime()) / 1000,
    timestamp: done.at.toISOString(),
  });
}

async function getMessage(req: http.IncomingMessage, res: http.ServerResponse, ids: string[]) {
  const [agentId, sessionId, messageId] = ids as [string, string, string];
  const agent = await authenticate(req, agentId);
  const m = await store.message(agent, sessionId, messageId);
  if (!m) throw new HttpError(404, "message_not_found");
  send(res, 200, {
    message_id: m.id,
    role: m.role,
    status: m.status,
    content: m.content,
    created_at: new Date(m.created_at).toISOString(),
    model: m.role === "assistant" ? m.model : null,
    token_usage:
      m.role === "assistant" && m.total_tokens !== null
        ? {
            prompt_tokens: m.prompt_tokens ?? 0,
            completion_tokens: m.completion_tokens ?? 0,
            total_tokens: m.total_tokens,
          }
        : null,
    session_id: m.session_id,
    agent_id: m.agent_id,
    organization_id: m.organization_id,
    project_id: m.project_id,
    cost: m.cost,
    processing_time_ms: m.processing_time_ms,
    error: m.error ?? null,
  });
}

const TRIGGER = /^\/api\/agents\/webhook\/([^/?]+)\/?(?:\?|$)/;
const MESSAGE = /^\/api\/agents\/([^/?]+)\/sessions\/([^/?]+)\/messages\/([^/?]+)\/?(?:\?|$)/;

async function route(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = req.url ?? "/";
  let m: RegExpExecArray | null;
  if (req.method === "POST" && (m = TRIGGER.exec(url))) return trigger(req, res, m[1]!);
  if (req.method === "GET" && (m = MESSAGE.exec(url))) return getMessage(req, res, m.slice(1));
  if (req.method === "GET" && url === "/health") return send(res, 200, { ok: true });
  throw new HttpError(404, "not_found");
}

const server = http.createServer((req, res) => {
  route(req, res).catch((err) => {
    const status = err instanceof HttpError ? err.status : 500;
    if (status === 500) console.error(err);
    if (!res.headersSent)
      send(res, status, { error: { code: err instanceof HttpError ? err.code : "internal_error" } });
    else res.destroy();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1");
process.on("SIGTERM", () => process.exit(0));
