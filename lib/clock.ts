// The one "now" of time-bound rules (Access Key expiry and roll grace, lib/auth/access-keys.ts;
// the key sweep, lib/keys/service.ts). Unit tests shift it to cross a boundary without sleeping;
// a production process cannot: shiftClock refuses there, and no route reaches it. A browser test
// moves a running server's clock through TEST_CLOCK_FILE, a file only the operator can name (the
// server warns at start-up while it is set).
import { readFileSync } from "node:fs";
import { env } from "./env";

let offsetMs = 0;

/** The current time, as the time-bound rules see it. */
export function now(): Date {
  return new Date(Date.now() + offsetMs + fileOffsetMs());
}

/** TEST_CLOCK_FILE's milliseconds (0 when unset, missing or not a finite number). */
function fileOffsetMs(): number {
  const file = env().TEST_CLOCK_FILE;
  if (!file) return 0;
  try {
    const ms = Number(readFileSync(file, "utf8").trim());
    return Number.isFinite(ms) ? ms : 0;
  } catch {
    return 0;
  }
}

/** Tests only: moves `now()` by `ms` (cumulative); `resetClock` puts it back. Refused in production. */
export function shiftClock(ms: number) {
  if (env().NODE_ENV === "production") throw new Error("the clock cannot be shifted in production");
  offsetMs += ms;
}

export function resetClock() {
  offsetMs = 0;
}
