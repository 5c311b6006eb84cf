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

/**
 * Example ids, one of each kind, in the service's formats: the path parameters' examples (the
 * schemas' `.meta()`) and the OpenAPI document's example answers (lib/openapi/examples.ts) name the
 * same ones.
 */
export const EXAMPLE_ID = {
  org: "org_0VdXgk9Qm2N8pR4sT6uV1w",
  project: "proj_0VdXgk9Qm2N8pR4sT6uV1x",
  agent: "agt_0VdXgkF2a1B2c3D4e5F6g7",
  workflowAgent: "agt_0VdXgkF2a1B2c3D4e5F6g8",
  session: "sess_0VdXh1Lq7Zk3Wm5Tn8Rb2c",
  userMessage: "msg_0VdXh1Lr1Ab2Cd3Ef4Gh5i",
  reply: "msg_0VdXh1Lr2Jk3Lm4Np5Qr6s",
  run: "run_0VdXi2Mn4Pq5Rs6Tu7Vw8x",
  item: "item_0VdXk4Pq6Rs7Tu8Vw9Xy0z",
  exception: "exc_0VdXk4Pq6Rs7Tu8Vw9Xy0z",
  file: "fi_3f1c0e4b9a7d4e2f8b6a5c4d3e2f1a0b",
  upload: "upl_0Vc3b1X2y3Z4a5B6c7D8e9",
  key: "key_0VdXj3Op5Qr6St7Uv8Wx9y",
  secret: "sec_0VdXj3Op5Qr6St7Uv8Wx9z",
  rawKey: "ak_4kPz9QxW2mLr7TnB5vYc8HsJ3dFg6AeK1uNo0iRtZbM",
  rule: "alr_0Rk3w2Zq8mN4pL7xYt2Bc9",
  bulkAction: "bulk_0Vk2Lm4Np6Qr8St1Uv3Wx5",
  delivery: "dlv_0VdXm5Qr7St8Uv9Wx0Yz1a",
  evaluation: "eval_0VdXm5Qr7St8Uv9Wx0Yz1a",
  evaluationCase: "evc_0VdXm5Qr7St8Uv9Wx0Yz1b",
  export: "exp_0Rk3w2Zq8mN4pL7xYt2Bc9",
  invitation: "inv_0Jk4Mn7Pq2Rs5Tv8Wx3Yz6",
  user: "usr_0Hq2Lm5Np8Rt3Vw6Yz9Bc4",
  view: "view_0Lm3Np6Qr9St2Uv5Wx8Yz1",
} as const;
