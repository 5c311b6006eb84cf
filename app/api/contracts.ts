// Every route contract (app/**/contract.ts), made by `node scripts/route-table.mjs --write`: do not
// edit. scripts/route-table.test.ts fails when it is out of date.
import type { RouteContract } from "@/lib/http/contract";
import * as c0 from "./agents/[agent_id]/runs/[run_id]/approvals/contract";
import * as c1 from "./agents/[agent_id]/runs/[run_id]/approvals/resolve/contract";
import * as c2 from "./agents/[agent_id]/runs/[run_id]/cancel/contract";
import * as c3 from "./agents/[agent_id]/runs/[run_id]/contract";
import * as c4 from "./agents/[agent_id]/runs/[run_id]/pause/contract";
import * as c5 from "./agents/[agent_id]/runs/[run_id]/resume/contract";
import * as c6 from "./agents/[agent_id]/runs/[run_id]/retry/contract";
import * as c7 from "./agents/[agent_id]/runs/contract";
import * as c8 from "./agents/[agent_id]/sessions/[session_id]/contract";
import * as c9 from "./agents/[agent_id]/sessions/[session_id]/messages/[message_id]/contract";
import * as c10 from "./agents/[agent_id]/sessions/[session_id]/messages/contract";
import * as c11 from "./agents/[agent_id]/sessions/contract";
import * as c12 from "./agents/[agent_id]/upload/contract";
import * as c13 from "./agents/[agent_id]/upload/tus/[[...path]]/contract";
import * as c14 from "./agents/webhook/[agent_id]/contract";
import * as c15 from "./files/download/contract";
import * as c16 from "./health/contract";
import * as c17 from "./metrics/contract";
import * as c18 from "./openapi.json/contract";
import * as c19 from "./ready/contract";
import * as c20 from "./v1/organizations/[org_id]/access-keys/[key_id]/contract";
import * as c21 from "./v1/organizations/[org_id]/access-keys/contract";
import * as c22 from "./v1/organizations/[org_id]/agents/[agent_id]/contract";
import * as c23 from "./v1/organizations/[org_id]/agents/contract";
import * as c24 from "./v1/organizations/[org_id]/secrets/[name]/contract";
import * as c25 from "./v1/organizations/[org_id]/secrets/contract";
import * as c26 from "./workflows/[agent_id]/trigger/contract";

export const CONTRACTS: readonly RouteContract[] = [
  ...Object.values(c0),
  ...Object.values(c1),
  ...Object.values(c2),
  ...Object.values(c3),
  ...Object.values(c4),
  ...Object.values(c5),
  ...Object.values(c6),
  ...Object.values(c7),
  ...Object.values(c8),
  ...Object.values(c9),
  ...Object.values(c10),
  ...Object.values(c11),
  ...Object.values(c12),
  ...Object.values(c13),
  ...Object.values(c14),
  ...Object.values(c15),
  ...Object.values(c16),
  ...Object.values(c17),
  ...Object.values(c18),
  ...Object.values(c19),
  ...Object.values(c20),
  ...Object.values(c21),
  ...Object.values(c22),
  ...Object.values(c23),
  ...Object.values(c24),
  ...Object.values(c25),
  ...Object.values(c26),
];
