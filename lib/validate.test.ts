// `unstorable`: what a request may not carry into the database (NUL, unpaired surrogates) and how
// deep a JSON body may nest; found by the reliability fuzz.
import { describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { assertStorable, MAX_JSON_DEPTH, unstorable } from "./validate";

const nested = (depth: number): unknown => {
  let v: unknown = "x";
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};

describe("unstorable", () => {
  it("accepts ordinary values, emoji (paired surrogates) and combining marks", () => {
    expect(unstorable({ message: "hi 💥 e\u0301", n: 1e308, list: [null, true, { a: "\ufeff" }] })).toBeUndefined();
    expect(unstorable("\ud83d\udca5")).toBeUndefined();
  });

  it.each([
    [{ message: "a\u0000b" }, "message", /NUL/],
    [{ metadata: { list: ["ok", "\u0000"] } }, "metadata.list.1", /NUL/],
    [{ "k\u0000": 1 }, "k\u0000", /^name must not contain the NUL/],
    [{ s: "\ud800" }, "s", /unpaired UTF-16 surrogate/],
    [{ s: "x\udfff" }, "s", /unpaired/],
    [{ s: "\udbff\ud800" }, "s", /unpaired/],
    ["\u0000", "(root)", /NUL/],
  ])("names the field of %j", (value, field, message) => {
    const problem = unstorable(value);
    expect(problem?.field).toBe(field);
    expect(problem?.message).toMatch(message);
  });

  it(`allows ${MAX_JSON_DEPTH} levels of nesting and refuses one more, without recursion`, () => {
    expect(unstorable(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(unstorable(nested(MAX_JSON_DEPTH + 1))?.message).toBe(`is nested deeper than ${MAX_JSON_DEPTH} levels`);
    expect(unstorable(nested(200_000))?.message).toMatch(/nested deeper/); // no stack overflow
  });

  it("assertStorable throws 400 invalid_request with the field", () => {
    let thrown: unknown;
    try {
      assertStorable({ a: { b: "\u0000" } }, "body");
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).status).toBe(400);
    expect((thrown as ApiError).message).toBe("Invalid body: a.b: must not contain the NUL character (\\u0000)");
    expect((thrown as ApiError).details).toEqual({
      fields: [{ field: "a.b", message: "must not contain the NUL character (\\u0000)" }],
    });
  });
});
