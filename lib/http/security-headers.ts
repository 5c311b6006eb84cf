// The browser security headers of every answer, pages and API alike (docs/security.md, Browser
// headers). server.ts sets them on each response before anything answers it, so Next's pages and
// route handlers, the fast routes and the server's own envelopes all carry them; a route that sets
// one of its own (a download's `sandbox` policy) replaces it.

/** No other site may frame any answer: the console's buttons must not be clickable through a frame. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * The console's policy: scripts only with this answer's nonce (Next puts it on its own scripts and
 * 'strict-dynamic' lets them load their chunks), no inline event handlers, nothing from elsewhere.
 * Styles keep 'unsafe-inline': React renders style attributes and they carry no script.
 */
export function pageCsp(nonce: string, https: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** Whether a path is answered by a page (HTML) rather than the API or Next's static files. */
export function isPagePath(pathname: string): boolean {
  return !/^\/(api|_next)(\/|$)/.test(pathname);
}

/**
 * The headers for one answer: `nonce` is given for a page (its scripts' nonce), absent for the API,
 * static files and the server's own envelopes. The invitation pages' URL holds a token: they send
 * no referrer at all.
 */
export function securityHeaders(opts: {
  pathname: string;
  https: boolean;
  nonce?: string;
}): Readonly<Record<string, string>> {
  // Every answer but a page's carries the same headers: made once, not on each API request.
  if (!opts.nonce)
    return (API_HEADERS[String(opts.https) as "true" | "false"] ??= Object.freeze(build(API_CSP, "", opts.https)));
  return build(pageCsp(opts.nonce, opts.https), opts.pathname, opts.https);
}

const API_HEADERS: Partial<Record<"true" | "false", Readonly<Record<string, string>>>> = {};

function build(csp: string, pathname: string, https: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    "content-security-policy": csp,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": /^\/invite(\/|$)/.test(pathname) ? "no-referrer" : "strict-origin-when-cross-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
  };
  if (https) headers["strict-transport-security"] = "max-age=31536000";
  return headers;
}
