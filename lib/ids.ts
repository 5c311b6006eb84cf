// Prefixed, opaque, URL-safe identifiers. Most ids start with a time component so that they sort
// by creation time; file ids are exactly `fi_` + 32 lowercase hex characters. Their shapes, for
// validation, are in id-format.ts.
import { randomBytes, randomFillSync } from "node:crypto";
import type { IdPrefix } from "./id-format";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// CSPRNG bytes drawn 4 KiB at a time: every request makes a few ids, and one call into the CSPRNG
// per id showed in the hot path's profile. Each byte is used once.
const pool = Buffer.alloc(4096);
let next = pool.length;

function randomByte(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++]!;
}

/** Unbiased base62 string of `length` characters from the CSPRNG. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62]; // 248 = 4 * 62: reject to avoid modulo bias
  }
  return out;
}

function timePart(ms = Date.now()): string {
  // 8 base62 characters of milliseconds: sortable until the year 8888.
  let n = Math.max(0, Math.floor(ms));
  let s = "";
  for (let i = 0; i < 8; i++) {
    s = BASE62[n % 62] + s;
    n = Math.floor(n / 62);
  }
  return s;
}

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${timePart()}${randomBase62(14)}`;
}

/**
 * The smallest id of `prefix` made at `ms`: ids made before it sort below it. A list ordered by id
 * bounds a time range with it (an index range on id; the exact time is checked beside it).
 */
export const idFloorAt = (prefix: IdPrefix, ms: number) => `${prefix}_${timePart(ms)}`;

export function newFileId(): string {
  // 12 hex of milliseconds + 20 random hex = 32.
  return `fi_${Date.now().toString(16).padStart(12, "0")}${randomBytes(10).toString("hex")}`;
}
