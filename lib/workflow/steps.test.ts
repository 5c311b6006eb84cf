// Workflow `http` and `llm` steps go through the upstream guard (lib/net/upstream-guard.ts): a
// refused address fails the item with an error that names the setting, and nothing is sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "../env";
import { closeExpressionEvaluator, expressionEvaluator } from "../expressions";
import { startFakeUpstream, type FakeUpstream } from "../../test-support/runtime";
import { Step } from "./schema";
import { runItem, type StepContext } from "./steps";

let upstream: FakeUpstream;
beforeAll(async () => {
  // Without the setting: the fake upstream on 127.0.0.1 is a loopback address, refused.
  process.env.ALLOW_PRIVATE_UPSTREAMS = "false";
  delete process.env.UPSTREAM_ALLOWLIST;
  resetEnvCache();
  upstream = await startFakeUpstream();
});
afterAll(async () => {
  await upstream.close();
  closeExpressionEvaluator();
});

const ctx = (): StepContext => ({
  runId: "run_1",
  inputs: {},
  evalInputs: { key: "none", json: "{}" },
  runtime: { type: "echo", delay_ms: 0 },
  signal: new AbortController().signal,
  evaluator: expressionEvaluator(),
});

const HINT =
  "upstream 127.0.0.1 is a loopback address; set ALLOW_PRIVATE_UPSTREAMS=true or add the host to UPSTREAM_ALLOWLIST";

describe("steps that call upstreams", () => {
  it("fails an http step to a loopback address with the refusal, without sending", async () => {
    const step = Step.parse({ id: "call", type: "http", url: `${upstream.url}/step`, on_error: "fail_item" });
    const out = await runItem({ steps: [step], from: 0, json: '{"a":1}', itemIndex: 0, ctx: ctx() });
    expect(out).toMatchObject({
      status: "failed",
      stepId: "call",
      exception: true,
      error: `Step "call" (http): ${HINT}`,
    });
    expect(upstream.requests).toHaveLength(0);
  });

  it("fails an llm step whose openai runtime points at a loopback address, without sending", async () => {
    const step = Step.parse({
      id: "summarise",
      type: "llm",
      prompt: "Summarise {{item.a}}",
      runtime: { type: "openai", base_url: `${upstream.url}/v1`, model: "m" },
    });
    const out = await runItem({ steps: [step], from: 0, json: '{"a":1}', itemIndex: 0, ctx: ctx() });
    expect(out).toMatchObject({
      status: "needs_review",
      stepId: "summarise",
      exception: true,
      error: `Step "summarise" (llm): ${HINT}`,
    });
    expect(upstream.requests).toHaveLength(0);
  });
});
