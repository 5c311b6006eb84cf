import { oidcConfigured } from "@/lib/http/auth";
import { withConsole } from "@/lib/http/console";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, async ({ user }) => ({
  user: { user_id: user.userId, email: user.email, name: user.name },
  organization: { organization_id: user.organizationId, name: user.organizationName },
  role: user.role,
  organizations: user.organizations,
  sso: oidcConfigured(),
}));
