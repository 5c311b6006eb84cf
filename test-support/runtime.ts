// A scriptable fake upstream on 127.0.0.1 for tests of the runtimes (and of anything that calls
// them): records every request and answers with whatever the current script says.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** "hang" never answers; "stall" sends 200 headers and half a JSON body, then nothing (both keep
 *  the socket open until the server closes); "reset" sends the same half body, then drops the socket. */
export type FakeAnswer =
  { status?: number; json?: unknown; text?: string; contentType?: string } | "hang" | "stall" | "reset";

export interface FakeUpstream {
  url: string;
  requests: RecordedRequest[];
  answer(script: (req: RecordedRequest) => FakeAnswer): void;
  close(): Promise<void>;
}

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  let script: (req: RecordedRequest) => FakeAnswer = () => ({ status: 200, json: {} });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        // keep the raw text
      }
      const rec = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
      requests.push(rec);
      const a = script(rec);
      if (a === "hang") return;
      if (a === "stall" || a === "reset") {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"content": "par', () => {
          if (a === "reset") res.destroy();
        });
        return;
      }
      const payload = a.text ?? JSON.stringify(a.json ?? {});
      res.writeHead(a.status ?? 200, { "content-type": a.contentType ?? "application/json" });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer: (s) => {
      script = s;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL on which nothing listens: a port we bound and released. */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/**
 * An upstream for `http` steps that holds the request of the item whose `hold` field is true until
 * `release()`, and answers every other request at once.
 */
export interface Barrier {
  url: string;
  /** Resolves when a held request has arrived (the engine is inside that item). */
  arrived(): Promise<void>;
  release(): void;
  close(): Promise<void>;
}

export async function startBarrier(): Promise<Barrier> {
  let held: (() => void)[] = [];
  let onArrival: (() => void) | undefined;
  let arrivals = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { item?: { hold?: boolean } };
      const answer = () => {
        if (!res.destroyed) res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      };
      if (!body.item?.hold) return answer();
      held.push(answer);
      arrivals++;
      onArrival?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/step`,
    arrived: () =>
      new Promise<void>((resolve) => {
        if (arrivals > 0) return resolve();
        onArrival = resolve;
      }).then(() => {
        arrivals = 0;
        onArrival = undefined;
      }),
    release: () => {
      const all = held;
      held = [];
      for (const answer of all) answer();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A fake OpenAI-compatible chat completions server (`{url}/chat/completions`, `url` is the base_url).
 * A request with `stream: true` gets each piece of `pieces` as one chunk (server-sent events), then
 * a usage chunk and `[DONE]`; any other gets one completion with the pieces joined. A Promise among
 * the pieces is a gate: nothing more is sent until it resolves. `error` answers that status instead.
 */
export interface FakeOpenAi {
  url: string;
  requests: RecordedRequest[];
  script(s: { pieces: (string | Promise<void>)[]; usage?: [prompt: number, completion: number]; error?: number }): void;
  /** Resolves when a request arrives after this call. */
  arrived(): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeOpenAi(model = "fake-model"): Promise<FakeOpenAi> {
  const requests: RecordedRequest[] = [];
  let current: Parameters<FakeOpenAi["script"]>[0] = { pieces: ["ok"] };
  let waiting: { after: number; resolve: () => void }[] = [];
  const chunk = (extra: Record<string, unknown>) =>
    `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 0, model, ...extra })}\n\n`;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as { stream?: boolean };
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      for (const w of waiting.filter((w) => requests.length > w.after)) w.resolve();
      waiting = waiting.filter((w) => requests.length <= w.after);
      const { pieces, usage = [3, pieces.length], error } = current;
      void (async () => {
        if (error) {
          res.writeHead(error, { "content-type": "application/json" });
          return res.end(JSON.stringify({ error: { message: "fake failure", type: "invalid_request_error" } }));
        }
        const [prompt, completion] = usage;
        const tokens = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
        if (!body.stream) {
          let content = "";
          for (const p of pieces) content += typeof p === "string" ? p : ((await p) ?? "");
          res.writeHead(200, { "content-type": "application/json" });
          const message = { role: "assistant", content };
          return res.end(
            JSON.stringify({
              id: "c",
              object: "chat.completion",
              model,
              choices: [{ index: 0, message, finish_reason: "stop" }],
              usage: tokens,
            }),
          );
        }
        res.writeHead(200, { "content-type": "text/event-stream" });
        for (const p of pieces) {
          if (typeof p !== "string") await p;
          else if (!res.destroyed)
            res.write(chunk({ choices: [{ index: 0, delta: { content: p }, finish_reason: null }] }));
        }
        if (res.destroyed) return;
        res.write(chunk({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }));
        res.write(chunk({ choices: [], usage: tokens }));
        res.end("data: [DONE]\n\n");
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (s) => {
      current = s;
    },
    arrived: () => new Promise<void>((resolve) => waiting.push({ after: requests.length, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A gate for scripted upstreams: `promise` resolves on `open()`. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
