import { withConsole } from "@/lib/http/console";
import { retentionSetting, setRetention } from "@/lib/retention/service";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, query }) =>
  retentionSetting({ organizationId, previewDays: query.preview_days }),
);

export const PATCH = withConsole(contract.PATCH, ({ organizationId, actor, body }) =>
  setRetention({ organizationId, input: body, actor }),
);
