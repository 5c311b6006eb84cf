import { getExport, managementExportLink } from "@/lib/exports/service";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, role, params, baseUrl }) =>
  getExport({
    organizationId,
    role,
    exportId: params.export_id,
    link: { baseUrl, path: managementExportLink(organizationId) },
  }),
);
