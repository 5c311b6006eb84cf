// Every route authenticated by an Access Key. The auth matrix (auth-matrix.test.ts) runs against
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
];
