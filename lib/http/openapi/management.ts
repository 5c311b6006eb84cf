// Fragments of the management API's operations (user token, /api/v1/organizations/{org_id}/...).
import { SECRET_NAME_RE } from "../../secrets/refs";
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
