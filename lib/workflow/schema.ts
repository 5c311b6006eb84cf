// Workflow definitions (docs/workflows.md), validated when an agent is saved.
// JSONata expressions (and the {{...}} parts of llm prompts) are compiled then, so that a syntax
// error is reported at save time, with the zod path naming the step and field
// (e.g. `workflow.steps.2.when`). docs/workflows.md documents the format.
//
// Compiling is JSONata's parser, on the main thread: it is quadratic in the length of some
// expressions (a long path `a.a.a...`), so expressions are bounded in length one by one and in
// total before any is compiled (docs/workflows.md, "Bounds"). Definitions read back from the
// database (a run's snapshot, a trigger) were compiled when saved: `StoredWorkflowDefinition`
// checks their shape only. Evaluation happens elsewhere (lib/expressions), never here.
import jsonata from "jsonata";
import { z } from "zod";
import { RuntimeConfig, UpstreamHeaders, UpstreamUrl } from "../runtime/schema";

export const InputType = z.enum(["string", "number", "integer", "boolean", "object", "array", "file"]);
export type InputType = z.infer<typeof InputType>;

const InputDecl = z.strictObject({
  type: InputType,
  required: z.boolean().default(false),
  description: z.string().optional(),
});
export type InputDecl = z.infer<typeof InputDecl>;

/** Longest expression, `{{...}}` placeholder included; longest llm prompt; all of a definition's expressions together. */
export const MAX_EXPRESSION_CHARS = 2_000;
export const MAX_PROMPT_CHARS = 20_000;
export const MAX_WORKFLOW_EXPRESSION_CHARS = 20_000;

function compileError(expr: string): string | undefined {
  try {
    jsonata(expr);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

const Expression = z.string().min(1).max(MAX_EXPRESSION_CHARS);

/** A prompt's literal text and its `{{ expression }}` placeholders, in order (a linear scan). */
export function templateParts(tpl: string): (string | { expr: string })[] {
  const parts: (string | { expr: string })[] = [];
  let pos = 0;
  for (;;) {
    const open = tpl.indexOf("{{", pos);
    const close = open < 0 ? -1 : tpl.indexOf("}}", open + 3); // at least one character inside
    if (close < 0) break;
    if (open > pos) parts.push(tpl.slice(pos, open));
    parts.push({ expr: tpl.slice(open + 2, close).trim() });
    pos = close + 2;
  }
  if (pos < tpl.length) parts.push(tpl.slice(pos));
  return parts;
}

const placeholders = (tpl: string) => templateParts(tpl).flatMap((p) => (typeof p === "string" ? [] : [p.expr]));

const Template = z
  .string()
  .min(1)
  .max(MAX_PROMPT_CHARS)
  .superRefine((tpl, ctx) => {
    for (const expr of placeholders(tpl))
      if (expr.length > MAX_EXPRESSION_CHARS)
        ctx.addIssue({
          code: "custom",
          message: `a {{...}} placeholder is longer than ${MAX_EXPRESSION_CHARS} characters`,
        });
  });

/** What an unexpected error in a step does to the item (and the run). */
export const OnError = z.enum(["review", "fail_item", "fail_run"]);
export type OnError = z.infer<typeof OnError>;

const stepBase = {
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1-64 letters, digits, _ or -"),
  on_error: OnError.default("review"),
};
const when = { when: Expression.optional() };
/** Where an http/llm answer goes in the item; defaults to the step id. */
const into = {
  into: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a field name")
    .optional(),
};

export const Step = z.discriminatedUnion("type", [
  z.strictObject({ ...stepBase, type: z.literal("transform"), expression: Expression, ...when }),
  z.strictObject({
    ...stepBase,
    type: z.literal("fail"),
    when: Expression,
    message: z.string().optional(),
    /** A matching item fails the whole run (status failed); retry resumes from this step. */
    fatal: z.boolean().default(false),
  }),
  z.strictObject({ ...stepBase, type: z.literal("review"), when: Expression, message: z.string().optional() }),
  z.strictObject({ ...stepBase, type: z.literal("skip"), when: Expression }),
  z.strictObject({
    ...stepBase,
    type: z.literal("http"),
    url: UpstreamUrl,
    timeout_ms: z.number().int().min(100).max(600_000).default(10_000),
    headers: UpstreamHeaders.optional(),
    /** JSONata for the request body; by default {run_id, step_id, item_index, item, inputs}. */
    body: Expression.optional(),
    ...into,
    ...when,
  }),
  z.strictObject({
    ...stepBase,
    type: z.literal("llm"),
    prompt: Template,
    /** Defaults to the agent's runtime. */
    runtime: RuntimeConfig.optional(),
    system: z.string().optional(),
    ...into,
    ...when,
  }),
  z.strictObject({ ...stepBase, type: z.literal("wait"), ms: z.number().int().min(0).max(3_600_000), ...when }),
]);
export type Step = z.infer<typeof Step>;

/** Upper bound of a definition's `concurrency`. */
export const MAX_CONCURRENCY = 32;

export const OutputFormat = z.enum(["csv", "jsonl", "json"]);
export type OutputFormat = z.infer<typeof OutputFormat>;

/** A definition's shape and references; its expressions are not compiled (see WorkflowDefinition). */
export const StoredWorkflowDefinition = z
  .strictObject({
    inputs: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), InputDecl).default({}),
    items: z.strictObject({ from: z.string(), format: OutputFormat.optional() }).optional(),
    steps: z.array(Step).min(1).max(100),
    /** Items of one run processed at once (default 1): for http and llm steps that wait on an
     *  upstream. The output keeps item order and the counts stay exact either way. */
    concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).optional(),
    output: z
      .strictObject({
        filename: z
          .string()
          .min(1)
          .max(200)
          .regex(/^[^/\\\0]+$/, "must be a file name without a path"),
        format: OutputFormat,
      })
      .optional(),
  })
  .superRefine((wf, ctx) => {
    const seen = new Set<string>();
    wf.steps.forEach((s, i) => {
      if (seen.has(s.id))
        ctx.addIssue({ code: "custom", path: ["steps", i, "id"], message: `duplicate step id ${s.id}` });
      seen.add(s.id);
    });
    if (wf.items) {
      const src = wf.inputs[wf.items.from];
      if (!src) {
        ctx.addIssue({ code: "custom", path: ["items", "from"], message: `no input named ${wf.items.from}` });
      } else if (src.type !== "file" && src.type !== "array") {
        ctx.addIssue({ code: "custom", path: ["items", "from"], message: "items come from an array or file input" });
      } else if (src.type === "file" && !wf.items.format) {
        ctx.addIssue({
          code: "custom",
          path: ["items", "format"],
          message: "a file input needs a format (csv, jsonl, json)",
        });
      }
    }
  });

/**
 * The expressions of a definition's steps, with the path of the field each comes from. The steps
 * may be malformed here (the compile check also runs when other fields have issues, so that a
 * syntax error is reported with them): only string fields count.
 */
function expressionsOf(steps: unknown): { path: (string | number)[]; expr: string; placeholder: boolean }[] {
  if (!Array.isArray(steps)) return [];
  const text = (v: unknown) => (typeof v === "string" ? [v] : []);
  return steps.flatMap((s: Record<string, unknown> | null, i) => {
    const fields: [string, string[], boolean][] = [
      ["when", text(s?.when), false],
      ["expression", s?.type === "transform" ? text(s.expression) : [], false],
      ["body", s?.type === "http" ? text(s.body) : [], false],
      ["prompt", s?.type === "llm" ? text(s.prompt).flatMap(placeholders) : [], true],
    ];
    return fields.flatMap(([field, exprs, placeholder]) =>
      exprs.map((expr) => ({ path: ["steps", i, field], expr, placeholder })),
    );
  });
}

/** A definition as saved: its shape, then every expression compiled (bounded first: see the header). */
export const WorkflowDefinition = StoredWorkflowDefinition.superRefine(
  (wf, ctx) => {
    const all = expressionsOf((wf as { steps?: unknown } | undefined)?.steps);
    const total = all.reduce((n, e) => n + e.expr.length, 0);
    if (total > MAX_WORKFLOW_EXPRESSION_CHARS) {
      ctx.addIssue({
        code: "custom",
        path: ["steps"],
        message: `the expressions of a workflow may total ${MAX_WORKFLOW_EXPRESSION_CHARS} characters; these total ${total}`,
      });
      return;
    }
    for (const { path, expr, placeholder } of all) {
      if (expr.length > MAX_EXPRESSION_CHARS) continue; // refused by the field's own bound
      const err = compileError(expr);
      if (err)
        ctx.addIssue({
          code: "custom",
          path,
          message: placeholder ? `invalid JSONata in {{${expr}}}: ${err}` : `invalid JSONata expression: ${err}`,
        });
    }
  },
  { when: () => true },
);

export type WorkflowDefinition = z.infer<typeof WorkflowDefinition>;
