import { AccessKeyList, MintKeyBody, MintedAccessKey } from "@/lib/keys/schemas";
import { CONSOLE_ADMIN_ERRORS, CONSOLE_ERRORS, JSON_BODY_ERRORS } from "@/lib/http/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/console/keys",
  auth: "console",
  responses: { 200: AccessKeyList },
  errors: [...CONSOLE_ERRORS],
});

export const POST = route({
  method: "POST",
  path: "/api/console/keys",
  auth: "console",
  responses: { 201: MintedAccessKey },
  errors: [...CONSOLE_ADMIN_ERRORS, ...JSON_BODY_ERRORS],
  body: MintKeyBody,
  admin: true,
});
