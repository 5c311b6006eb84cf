import { withConsole } from "@/lib/http/console";
import { overview } from "@/lib/orgs/overview";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId }) => overview({ organizationId }));
