import { oidcConfigured } from "@/lib/http/auth";
import { withConsole } from "@/lib/http/console";

export const GET = withConsole({}, async ({ user }) => ({
  user: { user_id: user.userId, email: user.email, name: user.name },
  organization: { organization_id: user.organizationId, name: user.organizationName },
  role: user.role,
  organizations: user.organizations,
  sso: oidcConfigured(),
}));
