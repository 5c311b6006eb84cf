import { rotateSigningSecret, signingSecretInfo } from "@/lib/callbacks/service";
import { withConsole } from "@/lib/http/console";
import { Reply } from "@/lib/http/handler";

export const GET = withConsole({}, ({ organizationId }) => signingSecretInfo(organizationId));

export const POST = withConsole(
  { admin: true },
  async ({ organizationId, actor }) => new Reply(await rotateSigningSecret(organizationId, actor), 201),
);
