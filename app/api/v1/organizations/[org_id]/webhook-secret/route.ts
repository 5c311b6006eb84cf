import { rotateSigningSecret, signingSecretInfo } from "@/lib/callbacks/service";
import { HttpAnswer } from "@/lib/http/handler";
import { withMember } from "@/lib/http/member";
import * as contract from "./contract";

export const GET = withMember(contract.GET, ({ organizationId }) => signingSecretInfo(organizationId));

export const POST = withMember(
  contract.POST,
  async ({ organizationId, actor }) => new HttpAnswer(await rotateSigningSecret(organizationId, actor), 201),
);
