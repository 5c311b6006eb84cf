import { CONSOLE_ERRORS } from "@/lib/openapi/parts";
import { z } from "zod";
import { Role } from "@/lib/orgs/schemas";
import { route } from "@/lib/http/contract";

/** The signed-in user, the organization they work in, their role there and all their memberships. */
const MeAnswer = z.strictObject({
  user: z.strictObject({ user_id: z.string(), email: z.string(), name: z.string().nullable() }),
  organization: z.strictObject({ organization_id: z.string(), name: z.string() }),
  role: Role,
  organizations: z.array(z.strictObject({ organization_id: z.string(), name: z.string(), role: Role })),
  /** OpenID Connect is configured (lib/http/auth.ts oidcConfigured). */
  sso: z.boolean(),
});

export const GET = route({
  method: "GET",
  path: "/api/console/me",
  auth: "console",
  responses: { 200: MeAnswer },
  errors: [...CONSOLE_ERRORS],
});
