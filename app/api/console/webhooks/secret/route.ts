import { rotateSigningSecret, signingSecretInfo } from "@/lib/callbacks/service";
import { withConsole } from "@/lib/http/console";
import { Reply } from "@/lib/http/handler";
import * as contract from "./contract";

export const GET = withConsole(contract.GET, ({ organizationId }) => signingSecretInfo(organizationId));

export const POST = withConsole(
  contract.POST,
  async ({ organizationId, actor }) => new Reply(await rotateSigningSecret(organizationId, actor), 201),
);
