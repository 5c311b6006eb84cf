// Next.js start-up hook: the server process starts tracing (when configured), opens the database
// and starts the worker before it serves requests.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // OpenTelemetry first, so that every span is seen; loads nothing unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
    const { startTracing } = await import("./lib/tracing");
    await startTracing();
    const { boot } = await import("./lib/boot");
    await boot();
  }
}
