import { withMember } from "@/lib/http/member";
import { search } from "@/lib/search/service";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId, query }) => search({ organizationId, q: query.q }));
