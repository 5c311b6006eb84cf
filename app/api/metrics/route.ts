// Prometheus metrics (docs/deploy.md, Metrics): open, or with METRICS_TOKEN only for that Bearer token.
import { withPublic } from "@/lib/http/handler";
import { METRICS_CONTENT_TYPE } from "@/lib/metrics";
import { requireScrapeToken, scrapeMetrics } from "@/lib/observability/scrape";
import * as contract from "./contract";

export const GET = withPublic(contract.GET, async ({ req }) => {
  requireScrapeToken(req.headers.get("authorization"));
  return new Response(await scrapeMetrics(), {
    headers: { "content-type": METRICS_CONTENT_TYPE, "cache-control": "no-store" },
  });
});
