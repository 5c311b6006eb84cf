// RFC 7240 preferences the service honours: respond-async, and wait=<seconds> to shorten a wait.
export interface Preferences {
  respondAsync: boolean;
  waitSeconds?: number;
}

export function parsePrefer(header: string | null): Preferences {
  const out: Preferences = { respondAsync: false };
  for (const part of (header ?? "").split(",")) {
    const [token, value = ""] = part
      .split(";")[0]!
      .split("=")
      .map((s) => s.trim().toLowerCase().replace(/"/g, ""));
    if (token === "respond-async") out.respondAsync = true;
    if (token === "wait" && /^\d+$/.test(value)) out.waitSeconds = Number(value);
  }
  return out;
}

/** Longest long poll a client may ask for with `Prefer: wait=N` on a GET. */
export const MAX_WAIT_SECONDS = 30;

/** The wait a GET honours (`Prefer: wait=N`, at most MAX_WAIT_SECONDS), in ms, and the header saying so. */
export function longPoll(req: Request): { waitMs?: number; applied?: HeadersInit } {
  const seconds = parsePrefer(req.headers.get("prefer")).waitSeconds;
  if (!seconds) return {};
  const applied = Math.min(seconds, MAX_WAIT_SECONDS);
  return { waitMs: applied * 1000, applied: { "preference-applied": `wait=${applied}` } };
}
