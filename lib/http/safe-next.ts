// Where to send a browser after sign-in (`/login?next=`) or after an Auth.js action (`callbackUrl`).
// Prefix checks on the raw string are not enough: URL parsers drop tabs and newlines anywhere, strip
// leading spaces and control characters, read "\" as "/" and collapse dot segments, so values like
// "/\t/evil.example" or "/.//evil.example" pass a "starts with one slash" test and still land on
// another host. The value is parsed the way a browser parses it, against the site's own origin, and
// only the normalised path of a same-origin result is kept.

/** Resolves relative values when the caller does not know the site's origin (it is never sent). */
const PLACEHOLDER_ORIGIN = "http://site.invalid";
/** Longer values are refused: no page of the console needs one, and they only feed Location headers. */
const MAX_LENGTH = 2048;

/** A path of the site (`/…`, normalised and percent-encoded), or "/" for anything else. */
export function safeNext(next: unknown, origin: string = PLACEHOLDER_ORIGIN): string {
  if (typeof next !== "string" || !next || next.length > MAX_LENGTH) return "/";
  let url: URL;
  try {
    url = new URL(next, `${origin}/`);
  } catch {
    return "/";
  }
  if (url.origin !== new URL(origin).origin) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  // "/.//evil.example" normalises to "//evil.example": sent on, that names another host.
  return path.startsWith("//") ? "/" : path;
}
