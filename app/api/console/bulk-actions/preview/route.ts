import { previewBulkAction } from "@/lib/bulk/service";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const POST = withConsole(contract.POST, ({ organizationId, role, body }) =>
  previewBulkAction({ organizationId, role, input: body }),
);
