// Every route contract (app/**/contract.ts), made by `node scripts/route-table.mjs --write`: do not
// edit. scripts/route-table.test.ts fails when it is out of date.
import type { RouteContract } from "@/lib/http/contract";
import * as c0 from "./[...path]/contract";
import * as c1 from "./agents/[agent_id]/runs/[run_id]/approvals/contract";
import * as c2 from "./agents/[agent_id]/runs/[run_id]/approvals/resolve/contract";
import * as c3 from "./agents/[agent_id]/runs/[run_id]/cancel/contract";
import * as c4 from "./agents/[agent_id]/runs/[run_id]/contract";
import * as c5 from "./agents/[agent_id]/runs/[run_id]/pause/contract";
import * as c6 from "./agents/[agent_id]/runs/[run_id]/resume/contract";
import * as c7 from "./agents/[agent_id]/runs/[run_id]/retry/contract";
import * as c8 from "./agents/[agent_id]/runs/contract";
import * as c9 from "./agents/[agent_id]/sessions/[session_id]/contract";
import * as c10 from "./agents/[agent_id]/sessions/[session_id]/messages/[message_id]/contract";
import * as c11 from "./agents/[agent_id]/sessions/[session_id]/messages/contract";
import * as c12 from "./agents/[agent_id]/sessions/contract";
import * as c13 from "./agents/[agent_id]/upload/contract";
import * as c14 from "./agents/[agent_id]/upload/tus/[[...path]]/contract";
import * as c15 from "./agents/webhook/[agent_id]/contract";
import * as c16 from "./auth/[...nextauth]/contract";
import * as c17 from "./console/auth/sign-in/contract";
import * as c18 from "./console/auth/sign-out-everywhere/contract";
import * as c19 from "./console/auth/sign-out/contract";
import * as c20 from "./console/changes/contract";
import * as c21 from "./console/invitations/accept/contract";
import * as c22 from "./console/me/contract";
import * as c23 from "./console/org/contract";
import * as c24 from "./contract";
import * as c25 from "./files/download/contract";
import * as c26 from "./health/contract";
import * as c27 from "./metrics/contract";
import * as c28 from "./openapi.json/contract";
import * as c29 from "./ready/contract";
import * as c30 from "./v1/organizations/[org_id]/access-keys/[key_id]/contract";
import * as c31 from "./v1/organizations/[org_id]/access-keys/[key_id]/roll/contract";
import * as c32 from "./v1/organizations/[org_id]/access-keys/[key_id]/usage-preview/contract";
import * as c33 from "./v1/organizations/[org_id]/access-keys/contract";
import * as c34 from "./v1/organizations/[org_id]/agents/[agent_id]/chat/contract";
import * as c35 from "./v1/organizations/[org_id]/agents/[agent_id]/contract";
import * as c36 from "./v1/organizations/[org_id]/agents/[agent_id]/draft/contract";
import * as c37 from "./v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]/cancel/contract";
import * as c38 from "./v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]/cases/[case_id]/contract";
import * as c39 from "./v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]/cases/[case_id]/verdict/contract";
import * as c40 from "./v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]/cases/contract";
import * as c41 from "./v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]/contract";
import * as c42 from "./v1/organizations/[org_id]/agents/[agent_id]/evaluations/contract";
import * as c43 from "./v1/organizations/[org_id]/agents/[agent_id]/files/[file_id]/contract";
import * as c44 from "./v1/organizations/[org_id]/agents/[agent_id]/files/contract";
import * as c45 from "./v1/organizations/[org_id]/agents/[agent_id]/publish/contract";
import * as c46 from "./v1/organizations/[org_id]/agents/[agent_id]/rollback/contract";
import * as c47 from "./v1/organizations/[org_id]/agents/[agent_id]/rollout/contract";
import * as c48 from "./v1/organizations/[org_id]/agents/[agent_id]/runs/contract";
import * as c49 from "./v1/organizations/[org_id]/agents/[agent_id]/versions/[version]/contract";
import * as c50 from "./v1/organizations/[org_id]/agents/[agent_id]/versions/[version]/diff/contract";
import * as c51 from "./v1/organizations/[org_id]/agents/[agent_id]/versions/[version]/restore/contract";
import * as c52 from "./v1/organizations/[org_id]/agents/[agent_id]/versions/contract";
import * as c53 from "./v1/organizations/[org_id]/agents/contract";
import * as c54 from "./v1/organizations/[org_id]/alert-events/contract";
import * as c55 from "./v1/organizations/[org_id]/alert-rules/[rule_id]/contract";
import * as c56 from "./v1/organizations/[org_id]/alert-rules/[rule_id]/test/contract";
import * as c57 from "./v1/organizations/[org_id]/alert-rules/contract";
import * as c58 from "./v1/organizations/[org_id]/audit/contract";
import * as c59 from "./v1/organizations/[org_id]/bulk-actions/[bulk_action_id]/contract";
import * as c60 from "./v1/organizations/[org_id]/bulk-actions/contract";
import * as c61 from "./v1/organizations/[org_id]/bulk-actions/preview/contract";
import * as c62 from "./v1/organizations/[org_id]/deliveries/[delivery_id]/contract";
import * as c63 from "./v1/organizations/[org_id]/deliveries/[delivery_id]/redeliver/contract";
import * as c64 from "./v1/organizations/[org_id]/deliveries/contract";
import * as c65 from "./v1/organizations/[org_id]/exports/[export_id]/contract";
import * as c66 from "./v1/organizations/[org_id]/exports/[export_id]/download/contract";
import * as c67 from "./v1/organizations/[org_id]/exports/contract";
import * as c68 from "./v1/organizations/[org_id]/invitations/[invitation_id]/contract";
import * as c69 from "./v1/organizations/[org_id]/invitations/contract";
import * as c70 from "./v1/organizations/[org_id]/members/[user_id]/contract";
import * as c71 from "./v1/organizations/[org_id]/members/contract";
import * as c72 from "./v1/organizations/[org_id]/overview/contract";
import * as c73 from "./v1/organizations/[org_id]/retention/contract";
import * as c74 from "./v1/organizations/[org_id]/reviews/[exception_id]/claim/contract";
import * as c75 from "./v1/organizations/[org_id]/reviews/[exception_id]/resolve/contract";
import * as c76 from "./v1/organizations/[org_id]/reviews/bulk/contract";
import * as c77 from "./v1/organizations/[org_id]/reviews/contract";
import * as c78 from "./v1/organizations/[org_id]/runs/[run_id]/approvals/contract";
import * as c79 from "./v1/organizations/[org_id]/runs/[run_id]/approvals/resolve/contract";
import * as c80 from "./v1/organizations/[org_id]/runs/[run_id]/cancel/contract";
import * as c81 from "./v1/organizations/[org_id]/runs/[run_id]/contract";
import * as c82 from "./v1/organizations/[org_id]/runs/[run_id]/items/contract";
import * as c83 from "./v1/organizations/[org_id]/runs/[run_id]/pause/contract";
import * as c84 from "./v1/organizations/[org_id]/runs/[run_id]/rerun/contract";
import * as c85 from "./v1/organizations/[org_id]/runs/[run_id]/resume/contract";
import * as c86 from "./v1/organizations/[org_id]/runs/[run_id]/retry/contract";
import * as c87 from "./v1/organizations/[org_id]/runs/contract";
import * as c88 from "./v1/organizations/[org_id]/search/contract";
import * as c89 from "./v1/organizations/[org_id]/secrets/[name]/contract";
import * as c90 from "./v1/organizations/[org_id]/secrets/contract";
import * as c91 from "./v1/organizations/[org_id]/sessions/[session_id]/contract";
import * as c92 from "./v1/organizations/[org_id]/sessions/[session_id]/messages/contract";
import * as c93 from "./v1/organizations/[org_id]/sessions/contract";
import * as c94 from "./v1/organizations/[org_id]/usage/contract";
import * as c95 from "./v1/organizations/[org_id]/users/[user_id]/timeline/contract";
import * as c96 from "./v1/organizations/[org_id]/views/[view_id]/contract";
import * as c97 from "./v1/organizations/[org_id]/views/contract";
import * as c98 from "./v1/organizations/[org_id]/webhook-secret/contract";
import * as c99 from "./workflows/[agent_id]/trigger/contract";

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
  ...Object.values(c27),
  ...Object.values(c28),
  ...Object.values(c29),
  ...Object.values(c30),
  ...Object.values(c31),
  ...Object.values(c32),
  ...Object.values(c33),
  ...Object.values(c34),
  ...Object.values(c35),
  ...Object.values(c36),
  ...Object.values(c37),
  ...Object.values(c38),
  ...Object.values(c39),
  ...Object.values(c40),
  ...Object.values(c41),
  ...Object.values(c42),
  ...Object.values(c43),
  ...Object.values(c44),
  ...Object.values(c45),
  ...Object.values(c46),
  ...Object.values(c47),
  ...Object.values(c48),
  ...Object.values(c49),
  ...Object.values(c50),
  ...Object.values(c51),
  ...Object.values(c52),
  ...Object.values(c53),
  ...Object.values(c54),
  ...Object.values(c55),
  ...Object.values(c56),
  ...Object.values(c57),
  ...Object.values(c58),
  ...Object.values(c59),
  ...Object.values(c60),
  ...Object.values(c61),
  ...Object.values(c62),
  ...Object.values(c63),
  ...Object.values(c64),
  ...Object.values(c65),
  ...Object.values(c66),
  ...Object.values(c67),
  ...Object.values(c68),
  ...Object.values(c69),
  ...Object.values(c70),
  ...Object.values(c71),
  ...Object.values(c72),
  ...Object.values(c73),
  ...Object.values(c74),
  ...Object.values(c75),
  ...Object.values(c76),
  ...Object.values(c77),
  ...Object.values(c78),
  ...Object.values(c79),
  ...Object.values(c80),
  ...Object.values(c81),
  ...Object.values(c82),
  ...Object.values(c83),
  ...Object.values(c84),
  ...Object.values(c85),
  ...Object.values(c86),
  ...Object.values(c87),
  ...Object.values(c88),
  ...Object.values(c89),
  ...Object.values(c90),
  ...Object.values(c91),
  ...Object.values(c92),
  ...Object.values(c93),
  ...Object.values(c94),
  ...Object.values(c95),
  ...Object.values(c96),
  ...Object.values(c97),
  ...Object.values(c98),
  ...Object.values(c99),
];
