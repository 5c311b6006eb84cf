// The shape of the service's identifiers, apart from how they are made (lib/ids.ts draws them from the
// CSPRNG with node:crypto): the zod schemas that validate ids run in the browser too.

export type IdPrefix =
  | "org"
  | "proj"
  | "usr"
  | "mem"
  | "inv"
  | "utk"
  | "key"
  | "agt"
  | "sess"
  | "msg"
  | "run"
  | "item"
  | "out"
  | "evt"
  | "idem"
  | "sif"
  | "dses"
  | "upl"
  | "dlv"
  | "att"
  | "sec"
  | "req"
  | "bulk"
  | "exp"
  | "alr"
  | "alt"
  | "view"
  | "eval"
  | "evc";

/** Characters after the prefix and underscore: 8 of time and 14 random, all base62. */
export const ID_CHARS = 22;

/** The exact shape of an id made by newId(prefix). */
export const idPattern = (prefix: IdPrefix) => new RegExp(`^${prefix}_[0-9A-Za-z]{${ID_CHARS}}$`);

/** What a well-formed id looks like, for validation messages. */
export const idFormat = (prefix: IdPrefix) => `${prefix}_ followed by ${ID_CHARS} letters and digits`;

export const FILE_ID_RE = /^fi_[0-9a-f]{32}$/;
export const FILE_ID_FORMAT = "fi_ followed by 32 lowercase hexadecimal characters (0-9, a-f)";
