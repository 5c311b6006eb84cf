import { ADMIN_ERRORS, USER_ERRORS } from "@/lib/openapi/management";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { RetentionQuery, RetentionSetting, SetRetentionBody } from "@/lib/retention/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

const setting = {
  retention_days: 90,
  default_retention_days: 0,
  effective_days: 90,
  oldest: {
    sessions: "2026-09-01T08:30:00.000Z",
    runs: "2026-08-30T12:00:00.000Z",
    uploads: null,
    deliveries: "2026-08-30T12:00:02.000Z",
    audit: "2026-08-29T16:45:10.000Z",
    evaluations: "2026-10-02T09:12:00.000Z",
  },
};

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/retention",
  auth: "member",
  params: OrgParams,
  query: RetentionQuery,
  responses: { 200: RetentionSetting },
  errors: [...USER_ERRORS, "invalid_request"],
  openapi: () => ({
    operationId: "getRetention",
    summary: "Get the organization's retention",
    tag: "Retention",
    description:
      "Every member (the console shows support the setting read-only). How long the organization's history (sessions, runs, uploads, callback deliveries, audit " +
      "rows) is kept, where the setting comes from, and the oldest record kept of each kind. With " +
      "`preview_days`, also how many records the worker's next sweep would delete with that retention.",
    responses: {
      "200": {
        description: "The retention.",
        examples: {
          own: { summary: "The organization keeps 90 days", value: setting },
          preview: {
            summary: "With preview_days=30",
            value: {
              ...setting,
              preview: {
                retention_days: 30,
                cutoff: "2026-10-28T06:00:00.000Z",
                counts: { sessions: 10001, runs: 412, uploads: 0, deliveries: 398, audit: 77, evaluations: 3 },
              },
            },
          },
        },
      },
    },
  }),
});

export const PATCH = route({
  method: "PATCH",
  path: "/api/v1/organizations/[org_id]/retention",
  auth: "member",
  params: OrgParams,
  body: SetRetentionBody,
  admin: true,
  responses: { 200: RetentionSetting },
  errors: [...ADMIN_ERRORS, ...JSON_BODY_ERRORS],
  openapi: () => ({
    operationId: "setRetention",
    summary: "Set the organization's retention",
    tag: "Retention",
    description:
      "Admin only. `retention_days`: 1 to 3650 days, `0` keeps forever, `null` follows the server default " +
      "(`RETENTION_DAYS`). The worker's next sweep (every 10 minutes) deletes what is older, in small batches, " +
      "with its stored files; a change is written to the audit log (`retention.updated`, before and after).",
    bodyExamples: {
      days: { summary: "Keep 90 days", value: { retention_days: 90 } },
      default: { summary: "Follow the server default", value: { retention_days: null } },
    },
    responses: {
      "200": { description: "The retention as set.", examples: { set: { summary: "Set", value: setting } } },
    },
  }),
});
