// Every route authenticated by an Access Key, for the auth matrix (e2e/security/auth-matrix.test.ts):
// the list comes from the route contracts (app/api/contracts.ts, auth "accessKey"); what is kept here
// is how to call each (REQUESTS, one or more per route). A route without a request fails at load:
// add one when you add a route.
import { CONTRACTS } from "../../app/api/contracts";
import { matchRoute } from "../../lib/http/routes";
import type { RouteUnderTest } from "./helpers";

/**
 * Access Key routes the matrix leaves to their own suite, and why. tus answers with its protocol's
 * headers and plain-text refusals, and e2e/api/tus.test.ts checks its key handling.
 */
const OWN_SUITE = new Set(["/api/agents/[agent_id]/upload/tus/[[...path]]"]);

const REQUESTS: RouteUnderTest[] = [
  { name: "trigger", method: "POST", path: (a) => `/api/agents/webhook/${a}`, body: { message: "hi" } },
  {
    name: "upload",
    method: "POST",
    path: (a) => `/api/agents/${a}/upload`,
    raw: () => {
      const form = new FormData();
      form.append("file", new Blob(["a,b\n1,2\n"], { type: "text/csv" }), "matrix.csv");
      return form;
    },
  },
  { name: "list sessions", method: "GET", path: (a) => `/api/agents/${a}/sessions` },
  { name: "get session", method: "GET", path: (a) => `/api/agents/${a}/sessions/sess_unknown` },
  { name: "list messages", method: "GET", path: (a) => `/api/agents/${a}/sessions/sess_unknown/messages` },
  {
    name: "get message",
    method: "GET",
    path: (a) => `/api/agents/${a}/sessions/sess_unknown/messages/msg_unknown`,
  },
  // Workflow agents.
  {
    name: "workflow trigger",
    method: "POST",
    path: (a) => `/api/agents/webhook/${a}`,
    body: { rows: [] },
    kind: "workflow",
  },
  {
    name: "workflows api trigger",
    method: "POST",
    path: (a) => `/api/workflows/${a}/trigger`,
    body: { payload: { rows: [] } },
    kind: "workflow",
  },
  { name: "list runs", method: "GET", path: (a) => `/api/agents/${a}/runs`, kind: "workflow" },
  { name: "get run", method: "GET", path: (a) => `/api/agents/${a}/runs/run_unknown`, kind: "workflow" },
  ...(["pause", "resume", "cancel", "retry"] as const).map((action): RouteUnderTest => ({
    name: `${action} run`,
    method: "POST",
    path: (a) => `/api/agents/${a}/runs/run_unknown/${action}`,
    kind: "workflow",
  })),
  {
    name: "list approvals",
    method: "GET",
    path: (a) => `/api/agents/${a}/runs/run_unknown/approvals`,
    kind: "workflow",
  },
  {
    name: "resolve approval",
    method: "POST",
    path: (a) => `/api/agents/${a}/runs/run_unknown/approvals/resolve`,
    body: { exception_id: "exc_unknown", resolution: "approved" },
    kind: "workflow",
  },
];

const contracts = CONTRACTS.filter((c) => c.auth === "accessKey" && !OWN_SUITE.has(c.path));
const table = contracts.map((c) => ({ pattern: c.path, methods: [c.method as string] }));
const covered = new Set(
  REQUESTS.map((r) => {
    const entry = matchRoute(
      table.filter((e) => e.methods.includes(r.method)),
      r.path("agt_matrix"),
    );
    if (!entry) throw new Error(`e2e/api/routes.ts: ${r.name} is no Access Key route's request`);
    return `${r.method} ${entry.pattern}`;
  }),
);
const missing = contracts.map((c) => `${c.method} ${c.path}`).filter((k) => !covered.has(k));
if (missing.length) throw new Error(`e2e/api/routes.ts: add a request for ${missing.join(", ")} to REQUESTS`);

/** Every Access Key route's requests (each route of the contracts has at least one). */
export const ACCESS_KEY_ROUTES: readonly RouteUnderTest[] = REQUESTS;
