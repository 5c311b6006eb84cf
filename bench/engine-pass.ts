// One process's engine passes, for the workflow bench's before/after comparison (BENCH_BEFORE_DIR in
// bench/workflow.bench.ts): the checkout at BENCH_ROOT (this one or another, with its own
// node_modules and generated Prisma client) runs 3 passes of BENCH_ENGINE_ITEMS array items through
// 2 transform steps (the second with a `when`) with the evaluator processes, on a fresh PGlite, and
// prints one JSON line: items/s of each pass and the best.
//   BENCH_ROOT=/path/to/checkout npx tsx bench/engine-pass.ts
import { existsSync } from "node:fs";

const root = process.env.BENCH_ROOT ?? new URL("..", import.meta.url).pathname;
const items = Number(process.env.BENCH_ENGINE_ITEMS ?? 20_000);
const { openTestDatabase } = await import(`${root}/test-support/db.ts`);
const { closeExpressionEvaluator, expressionEvaluator } = await import(`${root}/lib/expressions/index.ts`);
// The fixtures live in test-support/ (a checkout before that had them in lib/workflow/testing.ts).
const fixtures = existsSync(`${root}/test-support/workflow.ts`)
  ? `${root}/test-support/workflow.ts`
  : `${root}/lib/workflow/testing.ts`;
const { drive, startRun, workflowAgent } = await import(fixtures);

const row = (i: number) => ({ id: String(i), name: `item ${i}`, qty: String((i % 17) + 1), price: String(i % 101) });
const db = await openTestDatabase();
const { agent, key } = await workflowAgent({
  inputs: { rows: { type: "array", required: true } },
  items: { from: "rows" },
  steps: [
    {
      id: "total",
      type: "transform",
      expression: "$merge([item, {'total': $number(item.qty) * $number(item.price)}])",
    },
    { id: "label", type: "transform", when: "item.qty != '3'", expression: "$merge([item, {'label': item.name}])" },
  ],
});
const rows = Array.from({ length: items }, (_, i) => row(i));
const evaluator = expressionEvaluator();
const pass = async (n: number) => {
  const runId = await startRun(agent, key, { rows: rows.slice(0, n) });
  const started = performance.now();
  const run = await drive(runId, undefined, evaluator);
  if (run.status !== "completed") throw new Error(`pass ended ${run.status}`);
  return n / ((performance.now() - started) / 1000);
};
await pass(2_000); // warm-up: JIT, evaluator processes
const rates: number[] = [];
for (let round = 0; round < 3; round++) rates.push(await pass(items));
console.log(JSON.stringify({ root, items, rates: rates.map(Math.round), best: Math.round(Math.max(...rates)) }));
closeExpressionEvaluator();
await db.dispose();
process.exit(0);
