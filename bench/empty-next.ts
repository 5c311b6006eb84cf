// The empty Next app (bench/empty-app: one route, GET /api/empty answering {"ok":true}), built with
// the project's own next when its build is missing or older than package-lock.json or its sources,
// and served by `next start` in a process of its own.
import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { root, startProcess, type BenchProcess } from "./processes";

const appDir = path.join(root, "bench/empty-app");
const nextBin = path.join(root, "node_modules/next/dist/bin/next");

function ensureBuilt() {
  const buildId = path.join(appDir, ".next/BUILD_ID");
  const inputs = [
    "package-lock.json",
    "bench/empty-app/next.config.mjs",
    "bench/empty-app/instrumentation.ts",
    "bench/empty-app/app/api/empty/route.ts",
  ];
  const newest = Math.max(...inputs.map((f) => statSync(path.join(root, f)).mtimeMs));
  if (existsSync(buildId) && statSync(buildId).mtimeMs >= newest) return;
  console.log("building bench/empty-app ...");
  try {
    execFileSync(process.execPath, [nextBin, "build", appDir], {
      cwd: root,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
      stdio: "pipe",
    });
  } catch (e) {
    const err = e as { stdout?: Buffer; stderr?: Buffer };
    console.error(`${err.stdout ?? ""}${err.stderr ?? ""}`);
    throw new Error("next build bench/empty-app failed");
  }
}

export async function startEmptyNext(): Promise<BenchProcess> {
  ensureBuilt();
  const app = await startProcess({
    name: "empty-next",
    args: [nextBin, "start", appDir, "--hostname", "127.0.0.1"],
    probePath: "/api/empty",
  });
  // A baseline that answers errors measures nothing (a 500 is cheaper than the route): refuse it.
  const res = await fetch(`${app.baseUrl}/api/empty`);
  if (res.status !== 200) {
    await app.stop();
    throw new Error(`the empty Next app answers ${res.status}, not 200: ${await res.text()}`);
  }
  return app;
}
