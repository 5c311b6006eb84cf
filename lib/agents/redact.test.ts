import { describe, expect, it } from "vitest";
import { assertCredentials, credentialRefs } from "../secrets/credentials";
import { REDACTED, redactConfig, restoreRedacted } from "./redact";

const runtime = {
  type: "http",
  url: "https://agents.example/reply?api_key=k-123&mode=fast",
  headers: { "x-api-key": "literal-value", Authorization: "Bearer {{secrets.tenant}}", "x-tenant": "acme" },
};
const workflow = {
  steps: [
    { id: "a", type: "http", url: "https://a.example/", headers: { token: "A-token" } },
    { id: "b", type: "http", url: "https://b.example/", headers: { token: "B-token" } },
    {
      id: "c",
      type: "llm",
      prompt: "Call with sk-proj-abcdefghijklmnopqrstuvwxyz0123 and {{item}}",
      runtime: { type: "openai", base_url: "https://api.example/v1", model: "m", api_key_secret: "openai" },
    },
  ],
};

describe("agent redaction", () => {
  it("hides header values, credential query values and credential-like text; keeps references", () => {
    const shown = redactConfig(runtime);
    expect(shown.headers).toEqual({
      "x-api-key": REDACTED,
      Authorization: "Bearer {{secrets.tenant}}",
      "x-tenant": REDACTED,
    });
    expect(shown.url).toBe("https://agents.example/reply?api_key=%5Bredacted%5D&mode=fast");
    const wf = redactConfig(workflow);
    expect(wf.steps[2]!.prompt).toBe(`Call with ${REDACTED} and {{item}}`);
    expect(wf.steps[2]!.runtime!.api_key_secret).toBe("openai");
    // Nothing to hide: the very same string, not a re-serialised URL.
    expect(redactConfig({ url: "HTTPS://Example.com:443/a?b=1" })).toEqual({ url: "HTTPS://Example.com:443/a?b=1" });
  });

  it("restores values sent back as shown, by step id even when steps move, and keeps real changes", () => {
    const shownRuntime = redactConfig(runtime);
    expect(restoreRedacted(shownRuntime, runtime)).toEqual(runtime);
    const changed = { ...shownRuntime, headers: { ...shownRuntime.headers, "x-api-key": "new-value" } };
    expect(restoreRedacted(changed, runtime).headers["x-api-key"]).toBe("new-value");

    const shown = redactConfig(workflow);
    const reordered = { steps: [shown.steps[1]!, shown.steps[0]!, shown.steps[2]!] };
    const restored = restoreRedacted(reordered, workflow);
    expect(restored.steps.map((s) => s.headers?.token)).toEqual(["B-token", "A-token", undefined]);
    expect(restored.steps[2]!.prompt).toBe(workflow.steps[2]!.prompt);
    // A header the stored config does not have stays as sent.
    const added = { ...shownRuntime, headers: { ...shownRuntime.headers, "x-new": REDACTED } };
    expect(restoreRedacted(added, runtime).headers["x-new"]).toBe(REDACTED);
  });
});

describe("agent credentials", () => {
  it("finds secrets and environment variables in the runtime and in steps, with their fields", () => {
    expect(credentialRefs(runtime, workflow)).toEqual([
      { field: "runtime.headers.Authorization", secret: "tenant" },
      { field: "workflow.steps.2.runtime.api_key_secret", secret: "openai" },
    ]);
    const refs = credentialRefs({ type: "openai", base_url: "https://api.openai.com/v1", api_key_env: "OPENAI" }, null);
    expect(refs).toEqual([{ field: "runtime.api_key_env", env: "OPENAI", host: "api.openai.com" }]);
  });

  it("refuses unknown secrets and variables the operator does not allow, naming each field", () => {
    expect(() => assertCredentials(credentialRefs(runtime, workflow), new Set(["tenant"]))).toThrow(
      expect.objectContaining({
        code: "invalid_agent",
        details: { fields: [{ field: "workflow.steps.2.runtime.api_key_secret", message: expect.any(String) }] },
      }),
    );
    expect(assertCredentials(credentialRefs(runtime, workflow), new Set(["tenant", "openai"]))).toEqual([
      "tenant",
      "openai",
    ]);
    const env = credentialRefs({ type: "openai", base_url: "https://x.example/v1", api_key_env: "AUTH_SECRET" }, null);
    expect(() => assertCredentials(env, new Set())).toThrow(/MODEL_KEY_ENV_ALLOWLIST/);
  });
});
