// The fake upstream of the `http` runtime for bench/api.bench.ts: answers every request with
// {"content": ...} after a fixed delay (BENCH_UPSTREAM_DELAY_MS, default 500 ms), as a slow model
// would. Run in a process of its own (bench/processes.ts) on PORT.
import http from "node:http";

const delayMs = Number(process.env.BENCH_UPSTREAM_DELAY_MS ?? 500);
const reply = JSON.stringify({ content: "A reply from the fake upstream." });

const server = http.createServer((req, res) => {
  req.resume(); // the body is not needed, but must be read for the connection to be reused
  req.once("end", () =>
    setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end(reply), delayMs),
  );
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1");
process.on("SIGTERM", () => process.exit(0));
