import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { CreateAgentBody } from "../agents/schemas";
import { parseStream } from "./items";

const collect = async (text: string | string[], format: "csv" | "jsonl" | "json") => {
  const out: unknown[] = [];
  const chunks = Array.isArray(text) ? text : [text];
  for await (const v of parseStream(Readable.from(chunks.map((c) => Buffer.from(c))), format, "rows")) out.push(v);
  return out;
};

describe("item sources", () => {
  it("reads csv rows as objects keyed by the header", async () => {
    expect(await collect("qty,price\n1,2\n\n3,4\n", "csv")).toEqual([
      { qty: "1", price: "2" },
      { qty: "3", price: "4" },
    ]);
  });

  it("reads jsonl and names the line of a bad record", async () => {
    expect(await collect('{"a":1}\n\n{"a":2}\n', "jsonl")).toEqual([{ a: 1 }, { a: 2 }]);
    await expect(collect('{"a":1}\n{oops\n', "jsonl")).rejects.toThrow(/could not be read as jsonl: line 2/);
  });

  it("splits a json array into elements across chunk boundaries, strings with brackets included", async () => {
    const text = '[{"s":"a]b,\\"c"},[1,[2]],3 , "x" ,null,{"n":{"m":[]}}]';
    const chunked = text.match(/.{1,3}/g)!;
    expect(await collect(chunked, "json")).toEqual([{ s: 'a]b,"c' }, [1, [2]], 3, "x", null, { n: { m: [] } }]);
    expect(await collect("[]", "json")).toEqual([]);
    await expect(collect('{"a":1}', "json")).rejects.toThrow(/top level must be an array/);
    await expect(collect("[1,2", "json")).rejects.toThrow(/unexpected end/);
  });

  it("refuses a malformed csv with a readable error", async () => {
    await expect(collect('a,b\n1,"2\n', "csv")).rejects.toThrow(/could not be read as csv/);
  });
});

describe("workflow definitions", () => {
  const agent = (steps: unknown[]) => ({
    name: "wf",
    kind: "workflow",
    runtime: { type: "echo" },
    workflow: { inputs: { rows: { type: "array" } }, items: { from: "rows" }, steps },
  });

  it("names the step and field of a JSONata syntax error", () => {
    const r = CreateAgentBody.safeParse(
      agent([
        { id: "a", type: "transform", expression: "item" },
        { id: "b", type: "skip", when: "item.x = 1" },
        { id: "c", type: "review", when: "item.total >" },
      ]),
    );
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join("."))).toEqual(["workflow.steps.2.when"]);
  });

  it("checks llm prompt placeholders, step ids and on_error at save time", () => {
    const r = CreateAgentBody.safeParse(
      agent([
        { id: "a", type: "llm", prompt: "Hi {{item.(}}" },
        { id: "a", type: "http", url: "https://x.example", on_error: "explode" },
      ]),
    );
    expect(r.error!.issues.map((i) => i.path.join(".")).sort()).toEqual([
      "workflow.steps.0.prompt",
      "workflow.steps.1.on_error",
    ]);
  });
});
