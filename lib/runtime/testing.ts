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
