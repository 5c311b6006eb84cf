import { getExport, managementExportLink } from "@/lib/exports/service";
import { withUserToken } from "@/lib/http/handler";
import * as contract from "./contract";

export const GET = withUserToken(contract.GET, ({ organizationId, role, params, baseUrl }) =>
  getExport({
    organizationId,
    role,
    exportId: params.export_id,
    link: { baseUrl, path: managementExportLink(organizationId) },
  }),
);
