import { HttpAnswer } from "@/lib/http/handler";
import { withMember } from "@/lib/http/member";
import { deleteSecret, setSecret } from "@/lib/secrets/service";
import * as contract from "./contract";

// 201 when it created the secret, 200 when it replaced its value.
export const PUT = withMember(contract.PUT, async ({ organizationId, actor, params, body }) => {
  const { secret, created } = await setSecret({ organizationId, name: params.name, value: body.value, actor });
  return new HttpAnswer(secret, created ? 201 : 200);
});

export const DELETE = withMember(contract.DELETE, ({ organizationId, actor, params }) =>
  deleteSecret({ organizationId, name: params.name, actor }),
);
