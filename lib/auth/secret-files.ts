// Secrets generated on first use and kept in the data folder (embedded mode), so that the README's
// two commands need no configuration: signed download URLs and console sessions.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** `${dataDir}/${name}`: 32 random bytes, base64url, mode 0600; created once, then read. */
export function dataDirSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  mkdirSync(dataDir, { recursive: true });
  try {
    // "wx": of two processes racing here, one writes and the other reads what it wrote.
    writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < 32) throw new Error(`${file} is too short to be a secret; delete it to regenerate`);
  return secret;
}

/**
 * The key of console sessions: AUTH_SECRET, else (embedded mode) one generated into the data
 * folder. On PostgreSQL several instances must share it, so it has to be set.
 */
export function authSecret(e: { AUTH_SECRET?: string; DATABASE_URL?: string; DATA_DIR: string }): string {
  if (e.AUTH_SECRET) return e.AUTH_SECRET;
  if (e.DATABASE_URL) {
    throw new Error(
      "AUTH_SECRET must be set when DATABASE_URL is set: console sessions are signed with it, and every " +
        "instance needs the same value (generate one with: openssl rand -base64 32).",
    );
  }
  return dataDirSecret(e.DATA_DIR, "auth-secret");
}
