// The one "now" of time-bound rules (Access Key expiry and roll grace, lib/auth/access-keys.ts;
// the key sweep, lib/keys/service.ts). Unit tests shift it to cross a boundary without sleeping;
// a production process cannot: shiftClock refuses there, and no route or variable reaches it.
import { env } from "./env";

let offsetMs = 0;

/** The current time, as the time-bound rules see it. */
export function now(): Date {
  return new Date(Date.now() + offsetMs);
}

/** Tests only: moves `now()` by `ms` (cumulative); `resetClock` puts it back. Refused in production. */
export function shiftClock(ms: number) {
  if (env().NODE_ENV === "production") throw new Error("the clock cannot be shifted in production");
  offsetMs += ms;
}

export function resetClock() {
  offsetMs = 0;
}
