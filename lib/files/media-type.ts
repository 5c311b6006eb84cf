// Media types of files (`Content-Type` of a multipart part, tus `filetype`): checked when a file is
// created, and again before one becomes a response header, so that a stored value can never split
// or break a header (a CR/LF or 8,000 characters once turned every download of a file into a 500).

/** What a file without a (valid) media type is served as. */
export const DEFAULT_CONTENT_TYPE = "application/octet-stream";
export const MAX_MEDIA_TYPE_LENGTH = 255;

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = String.raw`"(?:[^"\\\u0000-\u001f\u007f]|\\[\t\u0020-\u007e])*"`;
/** RFC 9110 8.3.1: type "/" subtype *( OWS ";" OWS parameter ). Each piece matches one character class. */
const MEDIA_TYPE_RE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|${QUOTED}))*$`);

/** Why `value` is not a media type, or undefined when it is one. */
export function mediaTypeProblem(value: string): string | undefined {
  if (value.length > MAX_MEDIA_TYPE_LENGTH) return `must be at most ${MAX_MEDIA_TYPE_LENGTH} characters`;
  if (!MEDIA_TYPE_RE.test(value)) return "must be a media type such as text/csv (type/subtype, optional parameters)";
  return undefined;
}

/** The value to put in a Content-Type header: the stored one when it is a media type, else octet-stream. */
export const headerMediaType = (value: string) => (mediaTypeProblem(value) ? DEFAULT_CONTENT_TYPE : value);
