// OpenTelemetry traces (docs/deploy.md, Tracing), started from Next's instrumentation hook when
// OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise nothing of OpenTelemetry is loaded (the SDK is
// imported only here, dynamically). Next.js itself makes the spans, one per request with the route
// pattern in `http.route` and `next.route`, and more inside it: registering a tracer provider is
// what turns them on. Spans go out in batches over OTLP/HTTP, protobuf or JSON
// (OTEL_EXPORTER_OTLP_PROTOCOL); the exporter and the resource read the SDK's own OTEL_* variables
// (endpoint, headers, timeout, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES).
import { env } from "./env";
import { log } from "./log";
import { processOnce, processSlot } from "./process-state";

/** The service's name in traces unless OTEL_SERVICE_NAME says otherwise. */
export const SERVICE_NAME = "agent-webhook-service";

interface Provider {
  shutdown(): Promise<void>;
}

const tracing = processSlot<Promise<Provider | undefined>>("tracing");

async function start(): Promise<Provider | undefined> {
  const { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: protocol } = env();
  if (!endpoint) return undefined;
  const [{ NodeTracerProvider, BatchSpanProcessor }, resources, { OTLPTraceExporter }] = await Promise.all([
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/resources"),
    protocol === "http/json"
      ? import("@opentelemetry/exporter-trace-otlp-http")
      : import("@opentelemetry/exporter-trace-otlp-proto"),
  ]);
  // Later wins: the SDK's defaults, this service's name, then OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES.
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ "service.name": SERVICE_NAME }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter() as never)],
  });
  provider.register();
  log.info({ protocol }, "tracing: exporting spans over OTLP/HTTP");
  return provider;
}

/** Starts tracing once per process when OTEL_EXPORTER_OTLP_ENDPOINT is set; a no-op otherwise. */
export function startTracing(): Promise<unknown> {
  return processOnce("tracing", () =>
    start().catch((err) => {
      log.error({ err: { message: (err as Error).message } }, "tracing could not start");
      return undefined;
    }),
  );
}

/** Sends the spans still buffered (graceful shutdown). */
export async function stopTracing(): Promise<void> {
  const provider = await tracing.get();
  await provider?.shutdown().catch(() => {});
}
