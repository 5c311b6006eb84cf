// How the console writes an alert's value with its kind's unit (docs/console.md, Alerts).
import { describe, expect, it } from "vitest";
import { alertValueText } from "./schemas";

describe("alertValueText", () => {
  it("says one minute, one day and one delivery in the singular", () => {
    expect(alertValueText("review_waiting", 1)).toBe("1 minute");
    expect(alertValueText("key_expiring", 1)).toBe("1 day");
    expect(alertValueText("callbacks_failing", 1)).toBe("1 delivery");
  });

  it("says other amounts in the plural, with percent and milliseconds as they are", () => {
    expect(alertValueText("review_waiting", 12)).toBe("12 minutes");
    expect(alertValueText("key_expiring", 6.25)).toBe("6.3 days");
    expect(alertValueText("key_expiring", 0)).toBe("0 days");
    expect(alertValueText("error_rate", 37.5)).toBe("37.5 %");
    expect(alertValueText("latency_p95", 1200)).toBe("1,200 ms");
  });
});
