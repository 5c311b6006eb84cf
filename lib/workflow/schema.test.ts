// Save-time bounds of workflow definitions: compiling is JSONata's parser on the main thread, so
// expressions are bounded in length one by one and in total before any is compiled, and prompts
// are split into their placeholders by a linear scan (docs/workflows.md, "Bounds").
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_EXPRESSION_CHARS,
  MAX_PROMPT_CHARS,
  MAX_WORKFLOW_EXPRESSION_CHARS,
  StoredWorkflowDefinition,
  templateParts,
  WorkflowDefinition,
} from "./schema";

const definition = (steps: unknown[]) => ({ inputs: { rows: { type: "array" } }, items: { from: "rows" }, steps });
const issues = (value: unknown) =>
  (WorkflowDefinition.safeParse(value).error?.issues ?? []).map((i) => [i.path.join("."), i.message]);

/** A path `a.a.a...` of `chars` characters: JSONata's parser takes quadratic time over it. */
const path = (chars: number) => Array.from({ length: Math.ceil(chars / 2) }, () => "a").join(".");

describe("workflow definition bounds", () => {
  it("refuses an expression longer than the bound, naming its field", () => {
    const found = issues(
      definition([
        { id: "ok", type: "transform", expression: path(MAX_EXPRESSION_CHARS) },
        { id: "long", type: "transform", expression: path(MAX_EXPRESSION_CHARS + 2) },
        { id: "when", type: "skip", when: path(MAX_EXPRESSION_CHARS + 2) },
      ]),
    );
    expect(found.map(([field]) => field)).toEqual(["steps.1.expression", "steps.2.when"]);
    expect(found[0]![1]).toContain(`<=${MAX_EXPRESSION_CHARS} characters`);
  });

  it("refuses a definition whose expressions together exceed the bound, and compiles none of them", () => {
    // Each a syntax error: had they been compiled, each would be reported too.
    const expression = `${path(1_500)} +`;
    const count = Math.floor(MAX_WORKFLOW_EXPRESSION_CHARS / expression.length) + 1;
    const steps = Array.from({ length: count }, (_, i) => ({ id: `s${i}`, type: "transform", expression }));
    expect(issues(definition(steps))).toEqual([
      [
        "steps",
        `the expressions of a workflow may total ${MAX_WORKFLOW_EXPRESSION_CHARS} characters; these total ${count * expression.length}`,
      ],
    ]);
  });

  it("bounds a prompt and each of its placeholders", () => {
    const llm = (prompt: string) => definition([{ id: "ask", type: "llm", prompt }]);
    expect(issues(llm(`x${"{".repeat(MAX_PROMPT_CHARS)}`)).map(([field]) => field)).toEqual(["steps.0.prompt"]);
    expect(issues(llm(`Hello {{ ${path(MAX_EXPRESSION_CHARS + 2)} }}`))).toEqual([
      ["steps.0.prompt", `a {{...}} placeholder is longer than ${MAX_EXPRESSION_CHARS} characters`],
    ]);
    expect(issues(llm("Hello {{ item.( }} and {{ item.name }}"))).toEqual([
      ["steps.0.prompt", expect.stringMatching(/^invalid JSONata in \{\{item\.\(\}\}: /)],
    ]);
  });

  it("reads a stored definition without compiling its expressions", () => {
    const stored = definition([{ id: "t", type: "transform", expression: "item.(" }]);
    expect(StoredWorkflowDefinition.safeParse(stored).success).toBe(true);
    expect(issues(stored).map(([field]) => field)).toEqual(["steps.0.expression"]);
  });

  it("splits a prompt as the placeholder pattern /\\{\\{([\\s\\S]+?)\\}\\}/g did", () => {
    const old = (tpl: string) => {
      const parts: (string | { expr: string })[] = [];
      let last = 0;
      for (const m of tpl.matchAll(/\{\{([\s\S]+?)\}\}/g)) {
        if (m.index > last) parts.push(tpl.slice(last, m.index));
        parts.push({ expr: m[1]!.trim() });
        last = m.index + m[0].length;
      }
      if (last < tpl.length) parts.push(tpl.slice(last));
      return parts;
    };
    const tpl = fc.string({ unit: fc.constantFrom("{", "}", "a", " ", "\n"), maxLength: 40 });
    fc.assert(
      fc.property(tpl, (t) => {
        expect(templateParts(t)).toEqual(old(t));
      }),
      { numRuns: 2_000, seed: 18 },
    );
  });
});
