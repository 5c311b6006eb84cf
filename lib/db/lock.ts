// PGlite allows one process per data folder: two processes that open it silently lose data.
// The owner holds `<dir>/.lock` (its pid); a second process refuses with a clear message while
// the owner is alive, and takes over a lock left by a dead process.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dir} is in use by process ${pid}. PGlite allows one process per ` +
        `data folder: stop that process first (for the admin CLI: stop the server), or use ` +
        `PostgreSQL (DATABASE_URL) to share the database between processes.`,
    );
    this.name = "DataDirLockedError";
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock or throws DataDirLockedError. Returns a release function. */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, ".lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(file, "utf8") === String(process.pid)) unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
      process.once("exit", release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const pid = Number(readFileSync(file, "utf8").trim());
      if (pid === process.pid) throw new Error(`data folder ${dir} is already open in this process`);
      if (pid && alive(pid)) throw new DataDirLockedError(dir, pid);
      unlinkSync(file); // stale lock of a dead process
    }
  }
  throw new Error(`could not lock ${dir}`);
}
