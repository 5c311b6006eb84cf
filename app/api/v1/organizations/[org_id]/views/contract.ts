import * as ex from "@/lib/openapi/examples";
import { USER_ERRORS } from "@/lib/openapi/management";
import { JSON_BODY_ERRORS } from "@/lib/openapi/parts";
import { CreateViewBody, ViewPage, ViewRecord, ViewsQuery } from "@/lib/views/schemas";
import { route } from "@/lib/http/contract";
import { OrgParams } from "@/lib/validate";

export const GET = route({
  method: "GET",
  path: "/api/v1/organizations/[org_id]/views",
  auth: "member",
  params: OrgParams,
  query: ViewsQuery,
  responses: { 200: ViewPage },
  errors: [...USER_ERRORS, "invalid_request"],
  openapi: () => ({
    operationId: "listViews",
    summary: "List saved views",
    tag: "Saved views",
    description:
      "Every member. The caller's own views and the organization's shared views of one console list, newest " +
      "first; `mine` and `editable` are the caller's. A page at a time: `next_cursor` (null on the last " +
      "page) passed as `cursor` answers the next page.",
    responses: {
      "200": {
        description: "The views.",
        examples: {
          views: { summary: "One shared view", value: { views: [ex.viewRecord], has_more: false, next_cursor: null } },
        },
      },
    },
  }),
});

export const POST = route({
  method: "POST",
  path: "/api/v1/organizations/[org_id]/views",
  auth: "member",
  params: OrgParams,
  body: CreateViewBody,
  responses: { 201: ViewRecord },
  errors: [...USER_ERRORS, ...JSON_BODY_ERRORS, "too_many_views"],
  openapi: () => ({
    operationId: "createView",
    summary: "Save a view",
    tag: "Saved views",
    description:
      "Every member. A named set of a list's filters, as the list's URL writes them and checked by that " +
      "list's own filter rules (`400 invalid_request` naming `filters.<field>`); `shared` shows it to every " +
      "member. At most 100 views per member and list (`409 too_many_views`).",
    bodyExamples: {
      view: {
        summary: "Failed runs, shared",
        value: { list: "runs", name: "Failed this week", filters: ex.viewRecord.filters, shared: true },
      },
    },
    responses: {
      "201": { description: "The view.", examples: { saved: { summary: "Saved", value: ex.viewRecord } } },
    },
  }),
});
