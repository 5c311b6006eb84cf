import { Readiness } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/ready",
  auth: "public",
  responses: { 200: Readiness },
  errors: ["service_unavailable"],
  openapi: () => ({
    operationId: "ready",
    summary: "Readiness",
    tag: "Service",
    description:
      "For a load balancer's readiness probe (`/api/health` is liveness). `200` when the database answers and " +
      "the job queue is started, each checked within 2 s; `503` otherwise (`details.checks` says which did " +
      "not: `failed` or `timeout`) and from the moment the server begins a graceful shutdown " +
      "(`details.shutting_down`).",
    responses: {
      "200": {
        description: "Ready.",
        examples: { ready: { summary: "Ready", value: { status: "ready", checks: { database: "ok", queue: "ok" } } } },
      },
    },
  }),
});
