// The upload benchmark's floor: node:http writing each request body to a file, nothing else (no
// framework, no multipart parsing, no database). Answers {"size_bytes": n} once the file is closed.
import { createWriteStream, rmSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { pipeline } from "node:stream/promises";

const dir = process.env.BARE_UPLOAD_DIR;
let n = 0;
http
  .createServer(async (req, res) => {
    if (req.method !== "POST" && req.method !== "PATCH") return void res.end("{}");
    const file = path.join(dir, `upload-${++n}.bin`);
    const out = createWriteStream(file);
    try {
      await pipeline(req, out);
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ size_bytes: out.bytesWritten }));
    } catch {
      res.statusCode = 500;
      res.end("{}");
    } finally {
      rmSync(file, { force: true });
    }
  })
  .listen(Number(process.env.PORT), process.env.HOST);
