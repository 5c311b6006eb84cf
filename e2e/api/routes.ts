// Every route authenticated by an Access Key. The auth matrix (e2e/security/auth-matrix.test.ts) runs against
// each entry: add new public routes here.
import type { RouteUnderTest } from "./helpers";

export const ACCESS_KEY_ROUTES: RouteUnderTest[] = [
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
  // Workflow agents (issue 4).
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
