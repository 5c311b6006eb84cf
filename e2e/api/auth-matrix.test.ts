// The common auth matrix (SPEC 5) against every Access Key route.
import { describe, it } from "vitest";
import { authMatrixCases, runAuthMatrixCase } from "./helpers";
import { ACCESS_KEY_ROUTES } from "./routes";

describe.each(ACCESS_KEY_ROUTES)("auth matrix: $method $name", (route) => {
  it.each(authMatrixCases())("%s", async (_label, make) => {
    await runAuthMatrixCase(route, make);
  });
});
