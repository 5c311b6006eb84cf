// Every route authenticated by an Access Key. The auth matrix (auth-matrix.test.ts) runs against
// each entry: add new public routes here.
import type { RouteUnderTest } from "./helpers";

export const ACCESS_KEY_ROUTES: RouteUnderTest[] = [
  { name: "trigger", method: "POST", path: (a) => `/api/agents/webhook/${a}`, body: { message: "hi" } },
];
