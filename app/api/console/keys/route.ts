import { withConsole } from "@/lib/http/console";
import { Reply } from "@/lib/http/handler";
import { MintKeyBody } from "@/lib/keys/schemas";
import { listKeys, mintKey } from "@/lib/keys/service";

export const GET = withConsole({}, async ({ organizationId }) => ({ access_keys: await listKeys({ organizationId }) }));

export const POST = withConsole(
  { body: MintKeyBody, admin: true },
  async ({ organizationId, actor, body }) => new Reply(await mintKey({ organizationId, input: body, actor }), 201),
);
