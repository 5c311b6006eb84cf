import { Health } from "@/lib/openapi/parts";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/health",
  auth: "public",
  responses: { 200: Health },
  errors: ["service_unavailable"],
  openapi: () => ({
    operationId: "health",
    summary: "Health",
    tag: "Service",
    description: "`200` when the database answers.",
    responses: {
      "200": { description: "Healthy.", examples: { ok: { summary: "Healthy", value: { status: "ok" } } } },
    },
  }),
});
