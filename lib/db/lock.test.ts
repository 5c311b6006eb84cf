import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir } from "./lock";

const root = path.resolve(import.meta.dirname, "../..");
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

const tmpDir = () => mkdtempSync(path.join(os.tmpdir(), "lock-"));

/** Another process that takes the lock of `dir` with lockDataDir and keeps it until it is killed. */
async function otherOwner(dir: string): Promise<ChildProcess> {
  const code = `import { lockDataDir } from "./lib/db/lock.ts"; lockDataDir(${JSON.stringify(dir)}); console.log("locked"); setInterval(() => {}, 60_000);`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "--eval", code], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      output += d;
      if (output.includes("locked")) resolve();
    });
    child.stderr!.on("data", (d) => (output += d));
    child.once("exit", (code) => reject(new Error(`the other owner exited (${code}): ${output}`)));
  });
  return child;
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });

describe("data folder lock", () => {
  it("refuses a second owner while another live process holds it, naming that process", async () => {
    const dir = tmpDir();
    const owner = await otherOwner(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(`in use by process ${owner.pid}.`);
  });

  it("is free again as soon as its owner is killed with SIGKILL (the operating system drops the lock)", async () => {
    const dir = tmpDir();
    const owner = await otherOwner(dir);
    await killed(owner);
    const release = lockDataDir(dir);
    expect(readFileSync(path.join(dir, ".lock"), "utf8")).toBe(String(process.pid));
    release();
    expect(readFileSync(path.join(dir, ".lock"), "utf8")).toBe(""); // released: it names no owner
  });

  it("takes a folder whose lock file names this very process, as after a restart as PID 1 in a container", () => {
    const dir = tmpDir();
    writeFileSync(path.join(dir, ".lock"), String(process.pid));
    const release = lockDataDir(dir);
    release();
    writeFileSync(path.join(dir, ".lock"), "1");
    lockDataDir(dir)();
  });

  it("refuses a second open in the same process, and opens again after release", () => {
    const dir = tmpDir();
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(`data folder ${dir} is already open in this process`);
    expect(() => lockDataDir(path.join(dir, "."))).toThrow(/already open in this process/);
    release();
    release(); // a second release does nothing
    lockDataDir(dir)();
  });

  it("lets another process take the folder once released", async () => {
    const dir = tmpDir();
    lockDataDir(dir)();
    const owner = await otherOwner(dir);
    expect(() => lockDataDir(dir)).toThrow(`in use by process ${owner.pid}.`);
  });
});
