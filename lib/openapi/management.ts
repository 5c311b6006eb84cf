// Fragments of the management API's operations (user token, /api/v1/organizations/{org_id}/...).
import { SECRET_NAME_RE } from "../secrets/refs";
import { pathParameter } from "./builder";
import * as ex from "./examples";

export const ORG_ID = pathParameter(
  "org_id",
  "The organization (`org_...`); the token's user must be a member.",
  ex.ID.org,
);
export const KEY_ID = pathParameter("key_id", "The Access Key's id (`key_...`), not the key itself.", ex.ID.key);
export const SECRET_NAME = {
  ...pathParameter("name", "The secret's name: 1-64 letters, digits, `_`, `-` or `.`.", "openai-prod"),
  schema: { type: "string", pattern: SECRET_NAME_RE.source },
};

export const EXPORT_ID = pathParameter("export_id", "The export (`exp_...`).", "exp_0Rk3w2Zq8mN4pL7xYt2Bc9");

export const USER_ERRORS = ["unauthorized", "organization_not_found"] as const;
export const ADMIN_ERRORS = [...USER_ERRORS, "forbidden"] as const;

export const RULE_ID = pathParameter("rule_id", "The alert rule (`alr_...`).", "alr_0Rk3w2Zq8mN4pL7xYt2Bc9");

export const USER_ID = pathParameter("user_id", "The member's user id (`usr_...`).", "usr_0Hq2Lm5Np8Rt3Vw6Yz9Bc4");
export const INVITATION_ID = pathParameter(
  "invitation_id",
  "The invitation (`inv_...`).",
  "inv_0Jk4Mn7Pq2Rs5Tv8Wx3Yz6",
);
export const VIEW_ID = pathParameter("view_id", "The saved view (`view_...`).", "view_0Lm3Np6Qr9St2Uv5Wx8Yz1");

export const ORG_SESSION_ID = pathParameter(
  "session_id",
  "A session of any agent of the organization (`sess_...`).",
  "sess_0VdXh1Lq7Zk3Wm5Tn8Rb2c",
);
export const END_USER_ID = pathParameter(
  "user_id",
  "An end user's id as the triggers named it (a session's `user_id`, or a run's `user_id` input): 1-255 characters.",
  "cust_42",
);
export const FILE_ID = pathParameter(
  "file_id",
  "An uploaded file of this agent (`fi_...`).",
  "fi_3f1c0e4b9a7d4e2f8b6a5c4d3e2f1a0b",
);
