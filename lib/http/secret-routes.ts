// The organization secret routes, the same for the management API (user token) and the console
// (session): admin only; PUT answers 201 when it created the secret, 200 when it replaced its value.
import type { Actor } from "../audit";
import type { SecretParams, SetSecretBody } from "../secrets/schemas";
import { deleteSecret, listSecrets, setSecret } from "../secrets/service";
import { withConsole } from "./console";
import type { RouteContract } from "./contract";
import { Reply, withUserToken, type RouteHandler } from "./handler";

type Wrapper = typeof withConsole | typeof withUserToken;
type Ctx = { organizationId: string; actor: Actor };

// `contract`: the route's own (the contract.ts beside it), which the wrapper checks.
export const listSecretsRoute = (wrap: Wrapper, contract: RouteContract<unknown, unknown, unknown>): RouteHandler =>
  wrap(contract, async ({ organizationId }: Ctx) => ({ secrets: await listSecrets({ organizationId }) }));

export const setSecretRoute = (
  wrap: Wrapper,
  contract: RouteContract<SecretParams, undefined, SetSecretBody>,
): RouteHandler =>
  wrap(
    contract,
    async ({ organizationId, actor, params, body }: Ctx & { params: SecretParams; body: SetSecretBody }) => {
      const { secret, created } = await setSecret({ organizationId, name: params.name, value: body.value, actor });
      return new Reply(secret, created ? 201 : 200);
    },
  );

export const deleteSecretRoute = (
  wrap: Wrapper,
  contract: RouteContract<SecretParams, undefined, undefined>,
): RouteHandler =>
  wrap(contract, ({ organizationId, actor, params }: Ctx & { params: SecretParams }) =>
    deleteSecret({ organizationId, name: params.name, actor }),
  );
