import * as ex from "@/lib/openapi/examples";
import { ADMIN_ERRORS } from "@/lib/openapi/management";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { DeletedSecret, SecretParams, SecretRecord, SetSecretBody } from "@/lib/secrets/schemas";
import { route } from "@/lib/http/contract";

export const PUT = route({
  method: "PUT",
  path: "/api/v1/organizations/[org_id]/secrets/[name]",
  auth: "member",
  params: SecretParams,
  body: SetSecretBody,
  admin: true,
  responses: { 201: SecretRecord, 200: SecretRecord },
  errors: [...ADMIN_ERRORS, ...JSON_BODY_ERRORS],
  openapi: () => ({
    operationId: "setSecret",
    summary: "Create or replace an organization secret",
    tag: "Organization secrets",
    description:
      "Admin only. Write-only: the value is sealed (AES-256-GCM) and no answer, page or log ever shows it " +
      "again. Replacing a value (a rotation) takes effect at the agents' next call. An agent names it by " +
      "`runtime.api_key_secret` (openai) or `{{secrets.<name>}}` in a header value. An organization holds at most 100.",
    bodyExamples: {
      key: { summary: "A model API key", value: { value: "sk-...x9Qk" } },
    },
    responses: {
      "201": { description: "Created.", examples: { created: { summary: "Created", value: ex.secretRecord } } },
      "200": { description: "Replaced.", examples: { replaced: { summary: "Replaced", value: ex.secretRecord } } },
    },
  }),
});

export const DELETE = route({
  method: "DELETE",
  path: "/api/v1/organizations/[org_id]/secrets/[name]",
  auth: "member",
  params: SecretParams,
  admin: true,
  responses: { 200: DeletedSecret },
  errors: [...ADMIN_ERRORS, "invalid_request", "secret_not_found", "secret_in_use"],
  openapi: () => ({
    operationId: "deleteSecret",
    summary: "Delete an organization secret",
    tag: "Organization secrets",
    description: "Admin only. Refused with `409 secret_in_use` while an agent names it.",
    responses: {
      "200": {
        description: "Deleted.",
        examples: { deleted: { summary: "Deleted", value: { name: "openai-prod", deleted: true } } },
      },
    },
  }),
});
