// The signed link of an export (lib/exports/links.ts), for a member of its organization.
import { downloadExport } from "@/lib/exports/service";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, role, actor, params, query, req }) =>
  downloadExport({
    organizationId,
    role,
    actor,
    exportId: params.export_id,
    token: query.token,
    range: req.headers.get("range"),
  }),
);
