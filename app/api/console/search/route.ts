import { withConsole } from "@/lib/http/console";
import { search } from "@/lib/search/service";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId, query }) => search({ organizationId, q: query.q }));
