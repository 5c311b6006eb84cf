// Organization secrets (docs/api.md "Organization secrets"): the one source of validation, types
// and the OpenAPI document. A secret's value goes in and never comes out.
import { z } from "zod";
import { managementPageQuery, OrgParams, responseId, responsePageFields, responseTimestamp } from "../validate";
import { SECRET_NAME_RE, SECRET_NAME_RULE } from "./refs";

/** Secrets an organization may hold. */
export const MAX_SECRETS = 100;
export const MAX_SECRET_CHARS = 8192;

export const SecretName = z
  .string()
  .regex(SECRET_NAME_RE, SECRET_NAME_RULE)
  .meta({ description: "The secret's name, as agents name it.", example: "openai-prod" });

export const SecretParams = OrgParams.extend({
  name: SecretName.meta({
    description: "The secret's name: 1-64 letters, digits, `_`, `-` or `.`.",
    example: "openai-prod",
  }),
});
export type SecretParams = z.infer<typeof SecretParams>;

/**
 * What an HTTP header value can carry: visible ASCII, the space and Latin-1's printable letters.
 * Secrets go into headers: a line break would end one, another control character or anything above
 * U+00FF makes every call fail. Written with plain escapes, so that JSON Schema tools in other
 * languages read it as the same pattern.
 */
export const SECRET_VALUE_RE = /^[\x20-\x7E\xA0-\xFF]*$/;
const SECRET_VALUE_RULE =
  "must be text an HTTP header can carry: letters, digits, punctuation and spaces, Latin-1 at most " +
  "(no line breaks or other control characters, nothing above U+00FF)";

export const SetSecretBody = z.strictObject({
  value: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(MAX_SECRET_CHARS, `must be at most ${MAX_SECRET_CHARS} characters`)
    // The message never quotes the value or says where it fails: it is a secret.
    .regex(SECRET_VALUE_RE, SECRET_VALUE_RULE)
    .meta({ description: "The credential. Write-only: no answer ever contains it.", writeOnly: true }),
});
export type SetSecretBody = z.infer<typeof SetSecretBody>;

export const SecretRecord = z.strictObject({
  secret_id: responseId("sec"),
  name: SecretName,
  hint: z
    .string()
    .nullable()
    .meta({ description: "The value's last 4 characters, for recognising it; null for values under 12 characters." }),
  created_at: responseTimestamp(),
  updated_at: responseTimestamp().meta({ description: "When the value was last set." }),
  used_by: z
    .array(z.strictObject({ agent_id: responseId("agt"), name: z.string(), fields: z.array(z.string()) }))
    .meta({ description: "The agents whose configuration names the secret, and where." }),
});
export type SecretRecord = z.infer<typeof SecretRecord>;

export const SecretList = z.strictObject({ secrets: z.array(SecretRecord) });

/** The management API's list: a page of secrets by name (docs/api.md, Paging). */
export const ManagementSecretListQuery = z.object(managementPageQuery());
export const ManagementSecretList = SecretList.extend({ ...responsePageFields() });

export const DeletedSecret = z.strictObject({ name: SecretName, deleted: z.literal(true) });
