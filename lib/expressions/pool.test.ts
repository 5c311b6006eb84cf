// The expression evaluator pool: batches, the deadline (JSONata's own check and the watchdog's
// kill), the memory limit, the size cap, a killed or crashed process replaced with only the culprit
// failing, and a pool that never keeps its process alive. Real processes, no mocks.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEvaluatorPool, type EvaluatorPool } from "./pool";
import type { EvalItem, EvalRequest, ItemResult, PlanStep } from "./program";

const TIMEOUT_MS = 300;
const pools: EvaluatorPool[] = [];
afterAll(() => pools.forEach((p) => p.close()));

function pool(opts: Partial<Parameters<typeof createEvaluatorPool>[0]> = {}) {
  const p = createEvaluatorPool({ processes: 2, timeoutMs: TIMEOUT_MS, memoryMb: 64, maxResultChars: 10_000, ...opts });
  pools.push(p);
  return p;
}

const transform = (expression: string): PlanStep[] => [{ type: "transform", expression }];
const items = (...values: unknown[]): EvalItem[] => values.map((v) => ({ json: JSON.stringify(v), from: 0 }));

/** Every item's result: asks again for the rest after each answer, as the engine does. */
async function all(p: EvaluatorPool, request: EvalRequest): Promise<ItemResult[]> {
  const results: ItemResult[] = [];
  while (results.length < request.items.length) {
    const got = await p.evaluate({ ...request, items: request.items.slice(results.length) });
    expect(got.length).toBeGreaterThan(0);
    results.push(...got);
  }
  return results;
}

const done = (value: unknown): ItemResult => ({ k: "done", json: JSON.stringify(value) });
const NONE = { key: "none", json: "{}" };

/** Items 0 and 2 double n; item 1 runs `hostile`. */
const withCulprit = (hostile: string): EvalRequest => ({
  steps: transform(`item.bad ? (${hostile}) : {'n': item.n * 2}`),
  inputs: NONE,
  items: items({ n: 1 }, { n: 2, bad: true }, { n: 3 }),
});

/** The results of `withCulprit`: items 0 and 2 evaluated, item 1 failed with `code`. */
const culpritFailed = (code: string, message: string) => [
  done({ n: 2 }),
  { k: "error", step: 0, blame: 0, json: '{"n":2,"bad":true}', code, message },
  done({ n: 6 }),
];

describe("expression evaluator pool", () => {
  it("evaluates a batch in one process, in order, answering for a prefix each time", async () => {
    const p = pool();
    const request = {
      steps: transform("{'n': item.n + inputs.add}"),
      inputs: { key: "add", json: JSON.stringify({ add: 10 }) },
      items: items(...Array.from({ length: 500 }, (_, n) => ({ n }))),
    };
    const results = await all(p, request);
    expect(results).toEqual(Array.from({ length: 500 }, (_, n) => done({ n: n + 10 })));
    // One request at a time: one process did it all.
    expect(p.pids()).toHaveLength(1);
  });

  it("sends a run's inputs to a process once, and again after it let them go", async () => {
    const p = pool({ processes: 1 });
    // More keys than a process keeps, round after round: a process asked for inputs it no longer
    // keeps (or never had) would fail the request.
    for (let round = 0; round < 3; round++)
      for (let k = 0; k < 12; k++) {
        const inputs = { key: `run${k}`, json: JSON.stringify({ v: k }) };
        const [r] = await p.evaluate({ steps: transform("inputs.v"), inputs, items: items({}) });
        expect(r).toEqual(done(k));
      }
  });

  it("runs every kind of step: when (its unmet steps listed), stops, an http body, an llm prompt, a wait", async () => {
    const p = pool();
    const steps: PlanStep[] = [
      { type: "transform", when: "item.n > 1", expression: "$merge([item, {'big': true}])" },
      { type: "skip", when: "item.n = 0" },
      { type: "http", when: "item.n = 1", body: "{'x': item.n}" },
      { type: "llm", when: "item.n = 2", prompt: ["Hello ", { expr: "item.n" }, "!"] },
      { type: "review", when: "item.big" },
    ];
    const results = await all(p, { steps, inputs: NONE, items: items({ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }) });
    expect(results).toEqual([
      { k: "stop", step: 1, json: '{"n":0}', unmet: [0] },
      { k: "call", step: 2, json: '{"n":1}', body: '{"x":1}', unmet: [0, 1] },
      { k: "call", step: 3, json: '{"n":2,"big":true}', prompt: "Hello 2!", unmet: [1, 2] },
      { k: "stop", step: 4, json: '{"n":3,"big":true}', unmet: [1, 2, 3] },
    ]);
    const wait = await p.evaluate({ steps: [{ type: "wait" }], inputs: NONE, items: items({}) });
    expect(wait).toEqual([{ k: "call", step: 0, json: "{}" }]);
  });

  it("reports an expression error at its step, with the item as it entered it", async () => {
    const p = pool();
    const steps: PlanStep[] = [
      { type: "transform", expression: "$merge([item, {'a': 1}])" },
      { type: "transform", expression: "$number('x')" },
    ];
    const [r] = await p.evaluate({ steps, inputs: NONE, items: items({}) });
    expect(r).toMatchObject({ k: "error", step: 1, blame: 1, json: '{"a":1}' });
    expect(r).not.toHaveProperty("code");
  });

  it("deadline: a loop that never ends fails its item with expression_timeout, in the same process", async () => {
    const p = pool();
    const results = await all(p, withCulprit("($f := function($x){ $f($x) }; $f(0))"));
    expect(results).toEqual(
      culpritFailed("expression_timeout", `the expression did not finish within ${TIMEOUT_MS} ms`),
    );
    // JSONata's own check stopped it: no process was killed.
    const before = p.pids();
    await p.evaluate({ steps: transform("1"), inputs: NONE, items: items({}) });
    expect(p.pids()).toEqual(before);
  });

  it("deadline: a backtracking regular expression is killed; the culprit fails, the others are evaluated", async () => {
    const p = pool();
    expect(await p.evaluate({ steps: transform("0"), inputs: NONE, items: items({}) })).toEqual([done(0)]);
    const [pid] = p.pids();
    const results = await all(p, withCulprit('$match("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", /(a+)+$/)'));
    expect(results).toEqual(
      culpritFailed("expression_timeout", `the expression did not finish within ${TIMEOUT_MS} ms`),
    );
    expect(p.pids()).not.toContain(pid);
  });

  it("memory: an allocation beyond the heap limit fails its item with expression_too_large", async () => {
    const p = pool();
    const results = await all(p, withCulprit('$length($pad("", 100000000))'));
    expect(results).toEqual(culpritFailed("expression_too_large", "the expression needed more than 64 MB of memory"));
  });

  it("names the step a process died in, and starts the item again where its evaluation began", async () => {
    const p = pool();
    const steps: PlanStep[] = [
      { type: "transform", expression: "$merge([item, {'a': 1}])" },
      { type: "transform", expression: '$match("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", /(a+)+$/)' },
    ];
    const [r] = await p.evaluate({ steps, inputs: NONE, items: items({ n: 1 }) });
    expect(r).toMatchObject({ k: "error", step: 0, blame: 1, json: '{"n":1}', code: "expression_timeout" });
  });

  it("size: an item, a body or a prompt larger than the cap fails with expression_too_large", async () => {
    const p = pool();
    const big = '$pad("", 20000)';
    const steps: PlanStep[] = [
      { type: "transform", when: "item.n = 0", expression: `{'s': ${big}}` },
      { type: "http", when: "item.n = 1", body: big },
      { type: "llm", when: "item.n = 2", prompt: ["x", { expr: big }] },
    ];
    const results = await all(p, { steps, inputs: NONE, items: items({ n: 0 }, { n: 1 }, { n: 2 }) });
    expect(results).toEqual([
      expect.objectContaining({ k: "error", step: 0, blame: 0, json: '{"n":0}', code: "expression_too_large" }),
      expect.objectContaining({ k: "error", step: 1, blame: 1, json: '{"n":1}', code: "expression_too_large" }),
      expect.objectContaining({ k: "error", step: 2, blame: 2, json: '{"n":2}', code: "expression_too_large" }),
    ]);
    expect((results[0] as { message: string }).message).toBe("the item is larger than 10000 characters as JSON");
  });

  it.each(["SIGKILL", "SIGTERM"] as const)(
    "a process ended by %s in the middle of a request is replaced, and no item fails",
    async (signal) => {
      const p = pool({ timeoutMs: 30_000 });
      // Slow enough (hundreds of ms) that the process is still on it when it is killed.
      const slow = "$count($filter([1..300000], function($v){ $v % 2 = 0 }))";
      const request = { steps: transform(`item.slow ? ${slow} : item.n`), inputs: NONE, items: items({ n: 1 }) };
      request.items.unshift(...items({ slow: true }));
      const pending = all(p, request);
      while (!p.pids().length) await new Promise((r) => setTimeout(r, 5));
      const [pid] = p.pids();
      process.kill(pid!, signal);
      expect(await pending).toEqual([done(150_000), done(1)]);
      expect(p.pids()).not.toContain(pid);
    },
  );

  it("fails what is waiting once closed, and refuses new requests", async () => {
    const p = pool({ processes: 1 });
    const busy = p.evaluate(withCulprit("($f := function($x){ $f($x) }; $f(0))"));
    const waiting = p.evaluate({ steps: transform("1"), inputs: NONE, items: items({}) });
    p.close();
    await expect(busy).rejects.toThrow("closed");
    await expect(waiting).rejects.toThrow("closed");
    await expect(p.evaluate({ steps: transform("1"), inputs: NONE, items: items({}) })).rejects.toThrow("closed");
  });

  it("never keeps its process alive, and runs under tsx (the CLI and `npm run worker:dev`)", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "awhs-eval-"));
    const script = path.join(dir, "idle.mts");
    writeFileSync(
      script,
      `import { createEvaluatorPool } from ${JSON.stringify(path.join(import.meta.dirname, "pool.ts"))};
       const p = createEvaluatorPool({ processes: 2, timeoutMs: 1000, memoryMb: 64, maxResultChars: 1000 });
       const [r] = await p.evaluate({ steps: [{ type: "transform", expression: "item.n + 1" }], inputs: { key: "k", json: "{}" }, items: [{ json: '{"n":41}', from: 0 }] });
       console.log(JSON.stringify(r));
       // No close(): the idle evaluator process must not keep this process alive.`,
    );
    const tsx = path.join(import.meta.dirname, "../../node_modules/.bin/tsx");
    const run = spawnSync(tsx, [script], { cwd: path.join(import.meta.dirname, "../.."), timeout: 60_000 });
    expect(run.error).toBeUndefined();
    expect({ status: run.status, out: run.stdout.toString().trim() }).toEqual({
      status: 0,
      out: JSON.stringify({ k: "done", json: "42" }),
    });
  });
});
