// The size limit of a JSON request body (docs/api.md, Errors: payload_too_large), apart from the
// server's body reader so that the console's browser code can refuse an oversized input before
// sending it, with the very number the server enforces.
export const JSON_BODY_LIMIT = 1024 * 1024; // 1 MiB

/** The UTF-8 size of the JSON text of `value`: what a request with it as its body sends. */
export const jsonBodyBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;
