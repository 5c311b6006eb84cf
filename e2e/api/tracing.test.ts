// OpenTelemetry (lib/tracing.ts, instrumentation.ts): with OTEL_EXPORTER_OTLP_ENDPOINT set, a request
// to the API reaches an OTLP/HTTP receiver (a tiny one in this test) as spans carrying the route
// pattern, in JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) and in protobuf (the default); unset,
// the server loads no tracing and sends nothing.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ECHO_AGENT } from "./helpers";
import { ownServer, type OwnServer } from "./server";

interface Received {
  contentType: string;
  body: Buffer;
}

type Attribute = { key: string; value: { stringValue?: string; intValue?: string | number } };
interface JsonSpan {
  name: string;
  traceId: string;
  attributes?: Attribute[];
}

let own: OwnServer | undefined;
let receiver: http.Server;
const received: Received[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/v1/traces") {
        received.push({ contentType: req.headers["content-type"] ?? "", body: Buffer.concat(chunks) });
        res.writeHead(200, { "content-type": req.headers["content-type"] ?? "application/json" }).end("{}");
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
});

afterAll(async () => {
  await own?.dispose();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

const endpoint = () => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
/** Spans leave in batches: a short delay keeps the test quick. */
const FAST_BATCHES = { OTEL_BSP_SCHEDULE_DELAY: "100" };

async function until<T>(what: string, find: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const text = (a: Attribute | undefined) => a?.value.stringValue;

/** Every span of the JSON exports received so far, with its resource's attributes. */
function jsonSpans(): { span: JsonSpan; resource: Attribute[] }[] {
  return received
    .filter((r) => r.contentType.startsWith("application/json"))
    .flatMap((r) => {
      const doc = JSON.parse(r.body.toString("utf8")) as {
        resourceSpans: { resource: { attributes: Attribute[] }; scopeSpans: { spans: JsonSpan[] }[] }[];
      };
      return doc.resourceSpans.flatMap((rs) =>
        rs.scopeSpans.flatMap((ss) => ss.spans.map((span) => ({ span, resource: rs.resource.attributes }))),
      );
    });
}

describe("tracing", () => {
  it("exports spans over OTLP/HTTP JSON with the route pattern in their attributes", { timeout: 300_000 }, async () => {
    own = await ownServer("tracing", {
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint(),
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      ...FAST_BATCHES,
    });
    const key = await own.mintKey();
    const agent = await own.createAgent(ECHO_AGENT);
    const route = "/api/agents/[agent_id]/sessions";
    const res = await own.call("GET", `/api/agents/${agent}/sessions`, { auth: key });
    expect(res.status).toBe(200);

    const found = await until("a span of the sessions route", () =>
      jsonSpans().find(({ span }) =>
        (span.attributes ?? []).some((a) => ["http.route", "next.route"].includes(a.key) && text(a) === route),
      ),
    );
    expect(found.span.traceId).toMatch(/^[0-9a-f]{32}$/);
    const attrs = found.span.attributes!;
    expect(text(attrs.find((a) => a.key === "http.route") ?? attrs.find((a) => a.key === "next.route"))).toBe(route);
    expect(text(found.resource.find((a) => a.key === "service.name"))).toBe("agent-webhook-service");
    // The raw URL, with its agent id, is not the route.
    expect(route).not.toContain(agent);
  });

  it("exports protobuf by default, and nothing once the endpoint is unset", { timeout: 300_000 }, async () => {
    const o = own!;
    await o.restart("SIGTERM", { OTEL_EXPORTER_OTLP_PROTOCOL: "", OTEL_SERVICE_NAME: "awhs-under-test" });
    const before = received.length;
    const key = await o.mintKey();
    expect((await o.call("GET", "/api/ready")).status).toBe(200);
    expect((await o.call("GET", "/api/agents/agt_0TracingNoSuchAgent00000/sessions", { auth: key })).status).toBe(404);
    const proto = await until("a protobuf export", () =>
      received
        .slice(before)
        .find((r) => r.contentType === "application/x-protobuf" && r.body.includes("/api/agents/[agent_id]/sessions")),
    );
    // Protobuf strings are their UTF-8 bytes: the service name set by OTEL_SERVICE_NAME is in there.
    expect(proto.body.includes("awhs-under-test")).toBe(true);

    await o.restart("SIGTERM", { OTEL_EXPORTER_OTLP_ENDPOINT: "" });
    // Whatever the previous process still had to send went out at its shutdown (graceful: flushed).
    const settled = received.length;
    expect((await o.call("GET", "/api/ready")).status).toBe(200);
    expect((await o.call("GET", "/api/health")).status).toBe(200);
    // Give a batch (100 ms delay) ample time to leave, were anything exporting.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(received.length).toBe(settled);
  });
});
