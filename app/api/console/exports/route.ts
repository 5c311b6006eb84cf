import { CONSOLE_EXPORT_LINK, createExport, listExports } from "@/lib/exports/service";
import { withConsole } from "@/lib/http/console";
import { Reply } from "@/lib/http/handler";
import * as contract from "./contract";

export const POST = withConsole(
  contract.POST,
  async ({ organizationId, role, actor, body, baseUrl }) =>
    new Reply(
      await createExport({ organizationId, role, actor, input: body, link: { baseUrl, path: CONSOLE_EXPORT_LINK } }),
      201,
    ),
);

export const GET = withConsole(contract.GET, ({ organizationId, role, query, baseUrl }) =>
  listExports({ organizationId, role, ...query, link: { baseUrl, path: CONSOLE_EXPORT_LINK } }),
);
