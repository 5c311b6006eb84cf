// The common auth matrix (docs/api.md, Authentication) against every Access Key route.
import { describe, it } from "vitest";
import { authMatrixCases, runAuthMatrixCase } from "../api/helpers";
import { ACCESS_KEY_ROUTES } from "../api/routes";

describe.each(ACCESS_KEY_ROUTES)("T-TENANT-1 auth matrix: $method $name", (route) => {
  it.each(authMatrixCases())("%s", async (_label, make) => {
    await runAuthMatrixCase(route, make);
  });
});
