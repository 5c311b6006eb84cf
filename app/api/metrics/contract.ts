import { ANSWER, route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/metrics",
  auth: "public",
  responses: { 200: ANSWER.text("text/plain; version=0.0.4; charset=utf-8") },
  errors: ["unauthorized", "service_unavailable"],
  openapi: () => ({
    operationId: "metrics",
    summary: "Prometheus metrics",
    tag: "Service",
    description:
      "The Prometheus text format (docs/deploy.md lists every metric). Open unless the server has " +
      "`METRICS_TOKEN` set; then only `Authorization: Bearer <METRICS_TOKEN>` is answered (`401` otherwise). " +
      "With several server processes the answer is their sum. `503` when they could not be collected.",
    parameters: [
      {
        name: "Authorization",
        in: "header",
        required: false,
        description: "`Bearer <METRICS_TOKEN>`, when the server has one.",
        schema: { type: "string" },
      },
    ],
    responses: {
      "200": {
        description: "The metrics.",
        example:
          "# HELP agent_webhook_queue_depth Jobs ready to run and waiting for a worker, per queue.\n" +
          "# TYPE agent_webhook_queue_depth gauge\n" +
          'agent_webhook_queue_depth{queue="run"} 0\n',
      },
    },
  }),
});
