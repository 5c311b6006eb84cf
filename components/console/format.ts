// Display formats shared by the console's pages.
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return d.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";
}

export function relative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return "—";
  const s = Math.round((now - new Date(iso).getTime()) / 1000);
  if (s < 45) return "just now";
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 36) return `${h} h ago`;
  return `${Math.round(h / 24)} d ago`;
}

/** Time until `iso`: "7 d left", "5 h left", "12 min left", or "expired". */
export function timeLeft(iso: string, now = Date.now()): string {
  const s = Math.round((new Date(iso).getTime() - now) / 1000);
  if (s <= 0) return "expired";
  const m = Math.ceil(s / 60);
  if (m < 60) return `${m} min left`;
  const h = Math.round(m / 60);
  if (h < 36) return `${h} h left`;
  return `${Math.round(h / 24)} d left`;
}

export const formatNumber = (n: number | null | undefined) => (n == null ? "—" : n.toLocaleString("en-US"));

export const formatCost = (n: number | null | undefined) =>
  n == null ? "—" : `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 6 })}`;

export function formatMs(ms: number | null | undefined): string {
  if (ms == null) return "—";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/**
 * An id shortened the one way the console shortens ids: its prefix and its LAST six characters
 * (`sess_…3f9a2c`). Ids start with a time component, so two ids made close together share their
 * first characters and differ at the end. Show the full id on hover (title) and copy it whole.
 */
export function shortId(id: string): string {
  if (id.length <= 16) return id;
  const cut = id.indexOf("_");
  const prefix = cut > 0 && cut <= 8 ? id.slice(0, cut + 1) : "";
  return `${prefix}…${id.slice(-6)}`;
}

/** Why the test console refuses an input over the API's body limit, before it is sent. */
export function bodyTooLarge(what: "The message is" | "The inputs are", bytes: number, limit: number): string {
  const mib = +(limit / (1024 * 1024)).toFixed(2);
  return `${what} too large to send: the request would be ${formatNumber(bytes)} bytes, and the API accepts at most ${formatNumber(limit)} bytes (${mib} MiB). Shorten it and send again.`;
}
