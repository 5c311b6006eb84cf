import { createExport, listExports, managementExportLink } from "@/lib/exports/service";
import { HttpAnswer } from "@/lib/http/handler";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const POST = withMember(
  contract.POST,
  async ({ organizationId, role, actor, body, baseUrl }) =>
    new HttpAnswer(
      await createExport({
        organizationId,
        role,
        actor,
        input: body,
        link: { baseUrl, path: managementExportLink(organizationId) },
      }),
      201,
    ),
);

export const GET = withMember(contract.GET, ({ organizationId, role, query, baseUrl }) =>
  listExports({ organizationId, role, ...query, link: { baseUrl, path: managementExportLink(organizationId) } }),
);
