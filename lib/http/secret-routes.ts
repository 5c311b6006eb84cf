// The organization secret routes, the same for the management API (user token) and the console
// (session): admin only; PUT answers 201 when it created the secret, 200 when it replaced its value.
import type { Actor } from "../audit";
import { SecretParams, SetSecretBody } from "../secrets/schemas";
import { deleteSecret, listSecrets, setSecret } from "../secrets/service";
import { withConsole } from "./console";
import { Reply, withUserToken, type RouteHandler, type Spec } from "./handler";

type Wrapper = typeof withConsole | typeof withUserToken;
type Ctx = { organizationId: string; actor: Actor };

// `contract`: the route's own (contract.ts beside it); the console's routes still pass their spec.
export const listSecretsRoute = (
  wrap: Wrapper,
  contract: Spec<unknown, unknown, unknown> & { admin?: boolean } = { admin: true },
): RouteHandler =>
  wrap(contract, async ({ organizationId }: Ctx) => ({ secrets: await listSecrets({ organizationId }) }));

export const setSecretRoute = (
  wrap: Wrapper,
  contract: Spec<SecretParams, undefined, SetSecretBody> & { admin?: boolean } = {
    params: SecretParams,
    body: SetSecretBody,
    admin: true,
  },
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
  contract: Spec<SecretParams, undefined, undefined> & { admin?: boolean } = { params: SecretParams, admin: true },
): RouteHandler =>
  wrap(contract, ({ organizationId, actor, params }: Ctx & { params: SecretParams }) =>
    deleteSecret({ organizationId, name: params.name, actor }),
  );
