// The signed link of an export (lib/exports/links.ts), for a member of its organization.
import { downloadExport } from "@/lib/exports/service";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, role, actor, params, query, req }) =>
  downloadExport({
    organizationId,
    role,
    actor,
    exportId: params.export_id,
    token: query.token,
    range: req.headers.get("range"),
  }),
);
