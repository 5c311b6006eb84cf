// PGlite allows one process per data folder: two processes that open it silently lose data.
// The owner holds an exclusive advisory lock on `<dir>/.lock` (fs-native-extensions: an
// open-file-description lock on Linux, flock on macOS, LockFileEx on Windows) for as long as its
// descriptor is open. The operating system drops the lock with the process however it ends
// (kill -9, the OOM killer, a power cut), so a dead owner never blocks the next start, whatever pid
// the next process gets (PID 1 again in a container). The pid in the file only names the owner in
// the refusal's message; it decides nothing (docs/decisions.md, 55).
import { closeSync, constants, ftruncateSync, mkdirSync, openSync, readSync, realpathSync, writeSync } from "node:fs";
import path from "node:path";
import { tryLock } from "fs-native-extensions";
import { processOnce } from "../process-state";

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    /** The owner's pid as it wrote it (as it sees itself: 1 inside a container); undefined when unreadable. */
    readonly pid: number | undefined,
  ) {
    super(
      `The embedded database in ${dir} is in use by ${pid ? `process ${pid}` : "another process"}. PGlite ` +
        `allows one process per data folder: stop that process first (for the admin CLI: stop the ` +
        `server), or use PostgreSQL (DATABASE_URL) to share the database between processes.`,
    );
    this.name = "DataDirLockedError";
  }
}

/** The folders this process holds: a second open here is a bug of the caller, told apart from another owner. */
const held = () => processOnce("data-dir-locks", () => new Set<string>());

/** The pid the owner wrote into the lock file, if it reads as one. */
function ownerPid(fd: number): number | undefined {
  const buf = Buffer.alloc(32);
  try {
    const pid = Number(
      buf
        .subarray(0, readSync(fd, buf, 0, buf.length, 0))
        .toString("utf8")
        .trim(),
    );
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined; // Windows refuses to read a range another process locked
  }
}

/** Takes the lock or throws DataDirLockedError. Returns a release function. */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const key = realpathSync(dir);
  if (held().has(key)) throw new Error(`data folder ${dir} is already open in this process`);
  // Node opens every file close-on-exec: a child process (an expression evaluator) never inherits
  // the descriptor, so the lock ends with this process and no other.
  const fd = openSync(path.join(dir, ".lock"), constants.O_RDWR | constants.O_CREAT, 0o644);
  let granted: boolean;
  try {
    granted = tryLock(fd);
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  if (!granted) {
    const pid = ownerPid(fd);
    closeSync(fd);
    throw new DataDirLockedError(dir, pid);
  }
  // The file stays: deleting it on release would let two processes lock two different files of one
  // name (one still holding the deleted one).
  ftruncateSync(fd, 0);
  writeSync(fd, String(process.pid), 0);
  held().add(key);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held().delete(key);
    // Emptied, the file names no owner: nothing that the pid file of earlier releases (which trusted
    // the pid) would read as a live one.
    ftruncateSync(fd, 0);
    closeSync(fd); // closing the descriptor releases the lock
  };
}
