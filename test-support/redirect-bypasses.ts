// Values of `next` (and Auth.js's `callbackUrl`) that try to send a signed-in user to another site:
// the known open-redirect bypass forms. One table for the unit test of safeNext and for the attacks
// from outside (e2e/security/redirects.test.ts, e2e/ui/auth.spec.ts). Each is the decoded value the
// server sees; the tests put it in a query string with encodeURIComponent.
export const EVIL_HOST = "evil.example";

/** The known open-redirect bypass forms, by kind. */
const BY_KIND: Record<string, string[]> = {
  // Tab, newline and CR: URL parsers drop them, so "/\t/evil" is read as "//evil".
  controls_in_path: [
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "/\r\n/evil.example",
    "\t//evil.example",
    "/\t\\evil.example",
  ],
  // Protocol-relative and backslash forms (browsers read "\" as "/" in http(s) URLs).
  slashes_and_backslashes: [
    "//evil.example",
    "///evil.example",
    "////evil.example/keys",
    "/\\evil.example",
    "\\/evil.example",
    "\\\\evil.example",
    "/\\/evil.example",
  ],
  // Dot segments that collapse into a leading "//".
  dot_segments: ["/.//evil.example", "/..//evil.example", "/./\\evil.example", "/a/..//evil.example"],
  // Encoded and double-encoded slashes and backslashes (they must stay encoded, i.e. a path here).
  encoded: [
    "/%5cevil.example",
    "/%5Cevil.example",
    "%2F%2Fevil.example",
    "/%2F/evil.example",
    "/%2f%2fevil.example",
    "%252F%252Fevil.example",
    "/%09/evil.example",
    "/%0a/evil.example",
    "/%0d%0a/evil.example",
    "%5C%5Cevil.example",
  ],
  // Schemes.
  schemes: [
    "javascript:alert(document.domain)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "javascript://%0aalert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "ftp://evil.example/",
    "mailto:someone@evil.example",
  ],
  // Absolute URLs, with odd spellings of the scheme.
  absolute_urls: [
    "https://evil.example",
    "http://evil.example/keys",
    "HTTPS://EVIL.EXAMPLE/",
    "https:evil.example",
    "https:/evil.example",
    "http:\\\\evil.example",
    "https:/\\evil.example",
    "http://evil.example:80@127.0.0.1/",
  ],
  // User-info tricks.
  user_info: [
    "https://127.0.0.1@evil.example",
    "https://localhost@evil.example/",
    "//127.0.0.1@evil.example",
    "/@evil.example",
    "@evil.example",
    "//evil.example\\@127.0.0.1",
  ],
  // Leading spaces and control characters (URL parsers strip C0 controls and spaces at the ends).
  leading_controls: [
    "  //evil.example",
    "\u0000//evil.example",
    "\u001f//evil.example",
    "\u000b//evil.example",
    "\f//evil.example",
    "//evil.example\u0000",
  ],
  // Unicode look-alikes of "/" and "."
  look_alikes: ["/\u2215\u2215evil.example", "/\uff0f\uff0fevil.example", "//evil\u3002example"],
  // Very long values.
  long_values: [`/${"a".repeat(10_000)}`, `//${"a".repeat(5_000)}.evil.example`],
};

export const OPEN_REDIRECT_ATTEMPTS: string[] = Object.values(BY_KIND).flat();

/**
 * Every third form of each kind, its first included: what the browser suite sends through a real
 * browser, to show that it ends on the site too. The security suite sends every form and checks each
 * answer's Location as a browser resolves it (e2e/security/redirects.test.ts), so the browser repeats
 * a sample of each kind rather than all of them (about 0.6 s a navigation).
 */
export const A_THIRD_OF_EACH_KIND: string[] = Object.values(BY_KIND).flatMap((forms) =>
  forms.filter((_, i) => i % 3 === 0),
);

/** Paths of the site that come back as they are, or normalised as shown. */
export const SAFE_NEXT_PATHS: [input: string, expected: string][] = [
  ["/", "/"],
  ["/keys", "/keys"],
  ["/runs?status=failed&agent=agt_123", "/runs?status=failed&agent=agt_123"],
  ["/sessions/sess_abc#latest", "/sessions/sess_abc#latest"],
  ["/agents/agt_1/../agt_2", "/agents/agt_2"],
  ["/keys?q=a b", "/keys?q=a%20b"],
  ["/ünïcode", "/%C3%BCn%C3%AFcode"],
];

/** A space or a control character: URL parsers drop them, and none belongs in a Location header. */
export const hasSpaceOrControl = (value: string) =>
  [...value].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f);
