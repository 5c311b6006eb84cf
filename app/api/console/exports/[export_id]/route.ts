import { CONSOLE_EXPORT_LINK, getExport } from "@/lib/exports/service";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, role, params, baseUrl }) =>
  getExport({ organizationId, role, exportId: params.export_id, link: { baseUrl, path: CONSOLE_EXPORT_LINK } }),
);
