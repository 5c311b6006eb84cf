import { withUserToken } from "@/lib/http/handler";
import { retentionSetting, setRetention } from "@/lib/retention/service";
import * as contract from "./contract";

export const GET = withUserToken(contract.GET, ({ organizationId, query }) =>
  retentionSetting({ organizationId, previewDays: query.preview_days }),
);

export const PATCH = withUserToken(contract.PATCH, ({ organizationId, actor, body }) =>
  setRetention({ organizationId, input: body, actor }),
);
