// The OpenAPI document (lib/openapi), built without starting the server:
//   tsx scripts/openapi.ts --out FILE   writes it to FILE (`-` for stdout)
//   tsx scripts/openapi.ts --lint       writes it to a temporary file and lints it with Redocly
//                                       (redocly.yaml): `npm run lint:openapi`, part of `npm run check`
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { CONTRACTS } from "../app/api/contracts";
import { buildOpenApiDocument } from "../lib/openapi/document";

const root = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({ options: { out: { type: "string" }, lint: { type: "boolean" } } });
const text = `${JSON.stringify(buildOpenApiDocument(CONTRACTS), null, 2)}\n`;

if (values.out === "-") process.stdout.write(text);
else if (values.out) writeFileSync(values.out, text);

if (values.lint) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "openapi-"));
  const file = path.join(dir, "openapi.json");
  writeFileSync(file, text);
  const run = spawnSync(
    path.join(root, "node_modules/.bin/redocly"),
    ["lint", "--config", path.join(root, "redocly.yaml"), "--format", "summary", file],
    {
      stdio: "inherit",
      // No usage data and no update check: CI machines may not reach the internet.
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    },
  );
  rmSync(dir, { recursive: true, force: true });
  process.exit(run.status ?? 1);
}

if (!values.out && !values.lint) {
  console.error("usage: tsx scripts/openapi.ts [--out FILE|-] [--lint]");
  process.exit(2);
}
