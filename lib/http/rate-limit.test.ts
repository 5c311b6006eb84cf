import { describe, expect, it } from "vitest";
import { rateLimitedError, rateLimitHeaders } from "./rate-limit";
import { errorResponse } from "./respond";

describe("rate limit headers", () => {
  it("names the limit, what is left and the seconds until the window resets", () => {
    expect(rateLimitHeaders({ limit: 600, remaining: 599, resetSeconds: 60, allowed: true })).toEqual({
      "ratelimit-limit": "600",
      "ratelimit-remaining": "599",
      "ratelimit-reset": "60",
    });
  });

  it("refuses with 429 rate_limited in the envelope and Retry-After equal to the reset", async () => {
    const res = errorResponse(rateLimitedError({ limit: 5, remaining: 0, resetSeconds: 37, allowed: false }), "req_x");
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("37");
    const body = await res.json();
    expect(body.error).toMatchObject({
      code: "rate_limited",
      request_id: "req_x",
      details: { limit_per_minute: 5, retry_after_seconds: 37 },
    });
    expect(body.error.message).toContain("5 requests a minute");
  });
});
