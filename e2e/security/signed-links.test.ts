// Threat model row T-SIGN-1 (docs/security.md): a signed download link verifies only as it was
// issued. The attacker holds a real link (a run's output file) and tries every other spelling of
// its signature that a lenient base64url decoder reads as the same bytes.
import { describe, expect, it } from "vitest";
import { respelledSignatures } from "../../test-support/signatures";
import { call, createAgent, ctx, expectError, mintKey } from "../api/helpers";

const OUTPUT_WORKFLOW = {
  name: "signed links",
  kind: "workflow",
  runtime: { type: "echo" },
  workflow: {
    inputs: { rows: { type: "array", required: true } },
    items: { from: "rows" },
    steps: [{ id: "t", type: "transform", expression: "item" }],
    output: { filename: "out.jsonl", format: "jsonl" },
  },
};

describe("T-SIGN-1 a signed download link verifies only as it was issued", () => {
  it("downloads with the issued token; every respelled signature answers 403 invalid_signature", async () => {
    const { orgA } = ctx();
    const key = (await mintKey(orgA)).key;
    const agent = (await createAgent(orgA, OUTPUT_WORKFLOW)).agent_id;
    const started = await call("POST", `/api/agents/webhook/${agent}`, { auth: key, body: { rows: [{ n: 1 }] } });
    expect(started.status, started.text).toBe(202);
    let run = started.body;
    for (let i = 0; i < 60 && run.status !== "completed"; i++) {
      run = (
        await call("GET", `/api/agents/${agent}/runs/${started.body.run_id}`, {
          auth: key,
          headers: { prefer: "wait=5" },
        })
      ).body;
    }
    expect(run.status).toBe("completed");
    const url = new URL(run.output_files[0].url);
    const [payload, sig] = url.searchParams.get("token")!.split(".") as [string, string];
    const get = (token: string) => {
      url.searchParams.set("token", token);
      return call("GET", `${url.pathname}${url.search}`);
    };
    expect((await get(`${payload}.${sig}`)).status).toBe(200);
    for (const respelled of respelledSignatures(sig)) {
      expectError(await get(`${payload}.${respelled}`), 403, "invalid_signature");
    }
  });
});
