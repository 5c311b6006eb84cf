// Workflow definitions (DESIGN.md "Workflow agents"), validated when an agent is saved.
// JSONata expressions are compiled here so that a syntax error is reported at save time.
import jsonata from "jsonata";
import { z } from "zod";

const InputType = z.enum(["string", "number", "integer", "boolean", "object", "array", "file"]);

const InputDecl = z.strictObject({
  type: InputType,
  required: z.boolean().default(false),
  description: z.string().optional(),
});

const Expression = z
  .string()
  .min(1)
  .superRefine((expr, ctx) => {
    try {
      jsonata(expr);
    } catch (e) {
      ctx.addIssue({ code: "custom", message: `invalid JSONata expression: ${(e as Error).message}` });
    }
  });

const stepBase = { id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1-64 letters, digits, _ or -") };
const when = { when: Expression.optional() };

const Step = z.discriminatedUnion("type", [
  z.strictObject({ ...stepBase, type: z.literal("transform"), expression: Expression, ...when }),
  z.strictObject({
    ...stepBase,
    type: z.literal("fail"),
    when: Expression,
    message: z.string().optional(),
    fatal: z.boolean().default(false),
  }),
  z.strictObject({ ...stepBase, type: z.literal("review"), when: Expression, message: z.string().optional() }),
  z.strictObject({ ...stepBase, type: z.literal("skip"), when: Expression }),
  z.strictObject({
    ...stepBase,
    type: z.literal("http"),
    url: z.string().url(),
    timeout_ms: z.number().int().min(100).max(600_000).default(10_000),
    headers: z.record(z.string(), z.string()).optional(),
    into: z.string().optional(),
    ...when,
  }),
  z.strictObject({
    ...stepBase,
    type: z.literal("llm"),
    prompt: z.string().min(1),
    runtime: z.unknown().optional(),
    into: z.string().optional(),
    ...when,
  }),
  z.strictObject({ ...stepBase, type: z.literal("wait"), ms: z.number().int().min(0).max(3_600_000), ...when }),
]);

export const WorkflowDefinition = z
  .strictObject({
    inputs: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), InputDecl).default({}),
    items: z.strictObject({ from: z.string(), format: z.enum(["csv", "jsonl", "json"]).optional() }).optional(),
    steps: z.array(Step).min(1).max(100),
    output: z
      .strictObject({ filename: z.string().min(1).max(200), format: z.enum(["csv", "jsonl", "json"]) })
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

export type WorkflowDefinition = z.infer<typeof WorkflowDefinition>;
