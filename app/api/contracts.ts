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

/** Every contract by `METHOD /api/path/[param]`: what a typed caller names (components/console/use-api.ts). */
export interface ContractMap {
  "GET /api/agents/[agent_id]/runs/[run_id]/approvals": typeof c1.GET;
  "POST /api/agents/[agent_id]/runs/[run_id]/approvals/resolve": typeof c2.POST;
  "POST /api/agents/[agent_id]/runs/[run_id]/cancel": typeof c3.POST;
  "GET /api/agents/[agent_id]/runs/[run_id]": typeof c4.GET;
  "POST /api/agents/[agent_id]/runs/[run_id]/pause": typeof c5.POST;
  "POST /api/agents/[agent_id]/runs/[run_id]/resume": typeof c6.POST;
  "POST /api/agents/[agent_id]/runs/[run_id]/retry": typeof c7.POST;
  "GET /api/agents/[agent_id]/runs": typeof c8.GET;
  "GET /api/agents/[agent_id]/sessions/[session_id]": typeof c9.GET;
  "GET /api/agents/[agent_id]/sessions/[session_id]/messages/[message_id]": typeof c10.GET;
  "GET /api/agents/[agent_id]/sessions/[session_id]/messages": typeof c11.GET;
  "GET /api/agents/[agent_id]/sessions": typeof c12.GET;
  "POST /api/agents/[agent_id]/upload": typeof c13.POST;
  "OPTIONS /api/agents/[agent_id]/upload/tus/[[...path]]": typeof c14.OPTIONS;
  "POST /api/agents/[agent_id]/upload/tus/[[...path]]": typeof c14.POST;
  "HEAD /api/agents/[agent_id]/upload/tus/[[...path]]": typeof c14.HEAD;
  "PATCH /api/agents/[agent_id]/upload/tus/[[...path]]": typeof c14.PATCH;
  "DELETE /api/agents/[agent_id]/upload/tus/[[...path]]": typeof c14.DELETE;
  "GET /api/agents/[agent_id]/upload/tus/[[...path]]": typeof c14.GET;
  "POST /api/agents/webhook/[agent_id]": typeof c15.POST;
  "POST /api/console/auth/sign-in": typeof c17.POST;
  "POST /api/console/auth/sign-out-everywhere": typeof c18.POST;
  "POST /api/console/auth/sign-out": typeof c19.POST;
  "GET /api/console/changes": typeof c20.GET;
  "POST /api/console/invitations/accept": typeof c21.POST;
  "GET /api/console/me": typeof c22.GET;
  "POST /api/console/org": typeof c23.POST;
  "GET /api/files/download": typeof c25.GET;
  "GET /api/health": typeof c26.GET;
  "GET /api/metrics": typeof c27.GET;
  "GET /api/openapi.json": typeof c28.GET;
  "GET /api/ready": typeof c29.GET;
  "GET /api/v1/organizations/[org_id]/access-keys/[key_id]": typeof c30.GET;
  "DELETE /api/v1/organizations/[org_id]/access-keys/[key_id]": typeof c30.DELETE;
  "PATCH /api/v1/organizations/[org_id]/access-keys/[key_id]": typeof c30.PATCH;
  "POST /api/v1/organizations/[org_id]/access-keys/[key_id]/roll": typeof c31.POST;
  "GET /api/v1/organizations/[org_id]/access-keys/[key_id]/usage-preview": typeof c32.GET;
  "POST /api/v1/organizations/[org_id]/access-keys": typeof c33.POST;
  "GET /api/v1/organizations/[org_id]/access-keys": typeof c33.GET;
  "POST /api/v1/organizations/[org_id]/agents/[agent_id]/chat": typeof c34.POST;
  "GET /api/v1/organizations/[org_id]/agents/[agent_id]": typeof c35.GET;
  "PATCH /api/v1/organizations/[org_id]/agents/[agent_id]": typeof c35.PATCH;
  "DELETE /api/v1/organizations/[org_id]/agents/[agent_id]": typeof c35.DELETE;
  "DELETE /api/v1/organizations/[org_id]/agents/[agent_id]/draft": typeof c36.DELETE;
  "POST /api/v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]/cancel": typeof c37.POST;
  "GET /api/v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]/cases/[case_id]": typeof c38.GET;
  "PUT /api/v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]/cases/[case_id]/verdict": typeof c39.PUT;
  "GET /api/v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]/cases": typeof c40.GET;
  "GET /api/v1/organizations/[org_id]/agents/[agent_id]/evaluations/[evaluation_id]": typeof c41.GET;
  "POST /api/v1/organizations/[org_id]/agents/[agent_id]/evaluations": typeof c42.POST;
  "GET /api/v1/organizations/[org_id]/agents/[agent_id]/evaluations": typeof c42.GET;
  "GET /api/v1/organizations/[org_id]/agents/[agent_id]/files/[file_id]": typeof c43.GET;
  "DELETE /api/v1/organizations/[org_id]/agents/[agent_id]/files/[file_id]": typeof c43.DELETE;
  "GET /api/v1/organizations/[org_id]/agents/[agent_id]/files": typeof c44.GET;
  "POST /api/v1/organizations/[org_id]/agents/[agent_id]/publish": typeof c45.POST;
  "POST /api/v1/organizations/[org_id]/agents/[agent_id]/rollback": typeof c46.POST;
  "GET /api/v1/organizations/[org_id]/agents/[agent_id]/rollout": typeof c47.GET;
  "POST /api/v1/organizations/[org_id]/agents/[agent_id]/rollout": typeof c47.POST;
  "POST /api/v1/organizations/[org_id]/agents/[agent_id]/runs": typeof c48.POST;
  "GET /api/v1/organizations/[org_id]/agents/[agent_id]/versions/[version]": typeof c49.GET;
  "GET /api/v1/organizations/[org_id]/agents/[agent_id]/versions/[version]/diff": typeof c50.GET;
  "POST /api/v1/organizations/[org_id]/agents/[agent_id]/versions/[version]/restore": typeof c51.POST;
  "GET /api/v1/organizations/[org_id]/agents/[agent_id]/versions": typeof c52.GET;
  "POST /api/v1/organizations/[org_id]/agents": typeof c53.POST;
  "GET /api/v1/organizations/[org_id]/agents": typeof c53.GET;
  "GET /api/v1/organizations/[org_id]/alert-events": typeof c54.GET;
  "GET /api/v1/organizations/[org_id]/alert-rules/[rule_id]": typeof c55.GET;
  "PATCH /api/v1/organizations/[org_id]/alert-rules/[rule_id]": typeof c55.PATCH;
  "DELETE /api/v1/organizations/[org_id]/alert-rules/[rule_id]": typeof c55.DELETE;
  "POST /api/v1/organizations/[org_id]/alert-rules/[rule_id]/test": typeof c56.POST;
  "POST /api/v1/organizations/[org_id]/alert-rules": typeof c57.POST;
  "GET /api/v1/organizations/[org_id]/alert-rules": typeof c57.GET;
  "GET /api/v1/organizations/[org_id]/audit": typeof c58.GET;
  "GET /api/v1/organizations/[org_id]/bulk-actions/[bulk_action_id]": typeof c59.GET;
  "GET /api/v1/organizations/[org_id]/bulk-actions": typeof c60.GET;
  "POST /api/v1/organizations/[org_id]/bulk-actions": typeof c60.POST;
  "POST /api/v1/organizations/[org_id]/bulk-actions/preview": typeof c61.POST;
  "GET /api/v1/organizations/[org_id]/deliveries/[delivery_id]": typeof c62.GET;
  "POST /api/v1/organizations/[org_id]/deliveries/[delivery_id]/redeliver": typeof c63.POST;
  "GET /api/v1/organizations/[org_id]/deliveries": typeof c64.GET;
  "GET /api/v1/organizations/[org_id]/exports/[export_id]": typeof c65.GET;
  "GET /api/v1/organizations/[org_id]/exports/[export_id]/download": typeof c66.GET;
  "POST /api/v1/organizations/[org_id]/exports": typeof c67.POST;
  "GET /api/v1/organizations/[org_id]/exports": typeof c67.GET;
  "DELETE /api/v1/organizations/[org_id]/invitations/[invitation_id]": typeof c68.DELETE;
  "GET /api/v1/organizations/[org_id]/invitations": typeof c69.GET;
  "POST /api/v1/organizations/[org_id]/invitations": typeof c69.POST;
  "PATCH /api/v1/organizations/[org_id]/members/[user_id]": typeof c70.PATCH;
  "DELETE /api/v1/organizations/[org_id]/members/[user_id]": typeof c70.DELETE;
  "GET /api/v1/organizations/[org_id]/members": typeof c71.GET;
  "GET /api/v1/organizations/[org_id]/overview": typeof c72.GET;
  "GET /api/v1/organizations/[org_id]/retention": typeof c73.GET;
  "PATCH /api/v1/organizations/[org_id]/retention": typeof c73.PATCH;
  "POST /api/v1/organizations/[org_id]/reviews/[exception_id]/claim": typeof c74.POST;
  "POST /api/v1/organizations/[org_id]/reviews/[exception_id]/resolve": typeof c75.POST;
  "POST /api/v1/organizations/[org_id]/reviews/bulk": typeof c76.POST;
  "GET /api/v1/organizations/[org_id]/reviews": typeof c77.GET;
  "GET /api/v1/organizations/[org_id]/runs/[run_id]/approvals": typeof c78.GET;
  "POST /api/v1/organizations/[org_id]/runs/[run_id]/approvals/resolve": typeof c79.POST;
  "POST /api/v1/organizations/[org_id]/runs/[run_id]/cancel": typeof c80.POST;
  "GET /api/v1/organizations/[org_id]/runs/[run_id]": typeof c81.GET;
  "GET /api/v1/organizations/[org_id]/runs/[run_id]/items": typeof c82.GET;
  "POST /api/v1/organizations/[org_id]/runs/[run_id]/pause": typeof c83.POST;
  "POST /api/v1/organizations/[org_id]/runs/[run_id]/rerun": typeof c84.POST;
  "POST /api/v1/organizations/[org_id]/runs/[run_id]/resume": typeof c85.POST;
  "POST /api/v1/organizations/[org_id]/runs/[run_id]/retry": typeof c86.POST;
  "GET /api/v1/organizations/[org_id]/runs": typeof c87.GET;
  "GET /api/v1/organizations/[org_id]/search": typeof c88.GET;
  "PUT /api/v1/organizations/[org_id]/secrets/[name]": typeof c89.PUT;
  "DELETE /api/v1/organizations/[org_id]/secrets/[name]": typeof c89.DELETE;
  "GET /api/v1/organizations/[org_id]/secrets": typeof c90.GET;
  "GET /api/v1/organizations/[org_id]/sessions/[session_id]": typeof c91.GET;
  "GET /api/v1/organizations/[org_id]/sessions/[session_id]/messages": typeof c92.GET;
  "GET /api/v1/organizations/[org_id]/sessions": typeof c93.GET;
  "GET /api/v1/organizations/[org_id]/usage": typeof c94.GET;
  "GET /api/v1/organizations/[org_id]/users/[user_id]/timeline": typeof c95.GET;
  "PATCH /api/v1/organizations/[org_id]/views/[view_id]": typeof c96.PATCH;
  "DELETE /api/v1/organizations/[org_id]/views/[view_id]": typeof c96.DELETE;
  "GET /api/v1/organizations/[org_id]/views": typeof c97.GET;
  "POST /api/v1/organizations/[org_id]/views": typeof c97.POST;
  "GET /api/v1/organizations/[org_id]/webhook-secret": typeof c98.GET;
  "POST /api/v1/organizations/[org_id]/webhook-secret": typeof c98.POST;
  "POST /api/workflows/[agent_id]/trigger": typeof c99.POST;
}
