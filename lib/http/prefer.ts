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
