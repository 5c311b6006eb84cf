import { withConsole } from "@/lib/http/console";
import { overview } from "@/lib/orgs/overview";

export const GET = withConsole({}, ({ organizationId }) => overview({ organizationId }));
