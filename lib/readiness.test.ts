import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { isShuttingDown, markShuttingDown, TimeoutError, within } from "./lifecycle";
import { processSlot } from "./process-state";
import { readiness } from "./readiness";

afterEach(() => processSlot("shuttingDown").set(undefined));

describe("readiness", () => {
  it("is 503 service_unavailable once a graceful shutdown has begun, before any check", async () => {
    expect(isShuttingDown()).toBe(false);
    markShuttingDown();
    const err = await readiness().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: "service_unavailable", status: 503, details: { shutting_down: true } });
  });
});

describe("within", () => {
  it("passes a result or a failure through, and times out work that does not settle", async () => {
    await expect(within(1_000, "quick", Promise.resolve(7))).resolves.toBe(7);
    await expect(within(1_000, "failing", Promise.reject(new Error("no")))).rejects.toThrow("no");
    const never = new Promise<never>(() => {});
    const err = await within(20, "stuck work", never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as Error).message).toBe("stuck work took more than 20 ms");
  });
});
