// The errors every management API operation can answer (user token, /api/v1/organizations/{org_id}/...).

export const USER_ERRORS = ["unauthorized", "organization_not_found"] as const;
export const ADMIN_ERRORS = [...USER_ERRORS, "forbidden"] as const;
