import { jsonContent } from "@/lib/http/openapi/builder";
import { ok } from "@/lib/http/openapi/parts";
import { z } from "zod";
import { route } from "@/lib/http/contract";

export const GET = route({
  method: "GET",
  path: "/api/health",
  auth: "public",
  errors: ["service_unavailable"],
  openapi: (c) => ({
    operationId: "health",
    summary: "Health",
    tag: "Service",
    description: "`200` when the database answers.",
    responses: {
      "200": ok(
        "Healthy.",
        jsonContent(c.ref("Health", z.strictObject({ status: z.literal("ok") })), {
          ok: { summary: "Healthy", value: { status: "ok" } },
        }),
      ),
    },
  }),
});
