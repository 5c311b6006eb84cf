import { ADMIN_ERRORS, USER_ERRORS } from "@/lib/openapi/management";
import { RotatedSecret, SigningSecretInfo } from "@/lib/callbacks/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/webhook-secret",
  auth: "member",
  params: OrgParams,
  responses: { 200: SigningSecretInfo },
  errors: [...USER_ERRORS],
  openapi: () => ({
    operationId: "getWebhookSecret",
    summary: "Get the webhook signing secret's state",
    tag: "Webhook signing secret",
    description:
      "Every member. Whether the organization has a signing secret for its completion callbacks and alert " +
      "events (Standard Webhooks), when it was made and its last 4 characters; never the secret itself.",
    responses: {
      "200": {
        description: "The secret's state.",
        examples: {
          configured: {
            summary: "A secret is set",
            value: { configured: true, created_at: "2026-11-02T10:15:00.000Z", hint: "Q2w=" },
          },
          none: { summary: "No secret yet", value: { configured: false, created_at: null, hint: null } },
        },
      },
    },
  }),
});

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/webhook-secret",
  auth: "member",
  params: OrgParams,
  responses: { 201: RotatedSecret },
  errors: [...ADMIN_ERRORS],
  admin: true,
  openapi: () => ({
    operationId: "rotateWebhookSecret",
    summary: "Rotate the webhook signing secret",
    tag: "Webhook signing secret",
    description:
      "Admin only. Makes a new signing secret and answers it, this once; deliveries from now on are signed " +
      "with it (the previous one stops at once). Written to the audit log.",
    responses: {
      "201": {
        description: "The new secret.",
        examples: {
          rotated: {
            summary: "Rotated",
            value: {
              secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/Jq7eXs0Q2w=",
              created_at: "2026-11-29T01:40:00.000Z",
            },
          },
        },
      },
    },
  }),
});
