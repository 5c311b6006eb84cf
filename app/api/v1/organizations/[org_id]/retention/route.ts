import { withMember } from "@/lib/http/member";
import { retentionSetting, setRetention } from "@/lib/retention/service";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, query }) =>
  retentionSetting({ organizationId, previewDays: query.preview_days }),
);

export const PATCH = withMember(contract.PATCH, ({ organizationId, actor, body }) =>
  setRetention({ organizationId, input: body, actor }),
);
