// How the search box reads its text (docs/console.md, Search): ids and prefixes, field:value, words.
import { describe, expect, it } from "vitest";
import { ApiError } from "../errors";
import { containments, hrefOf, parseSearch, snippet } from "./service";

const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as ApiError).code;
  }
  return "none";
};

describe("parseSearch", () => {
  it("reads a whole id, and a prefix of 8+ characters, as an id of its kind", () => {
    expect(parseSearch(" sess_0VcACX4GHpu2GRQzMJGn2Z ")).toMatchObject({ mode: "id", kind: "session", whole: true });
    expect(parseSearch("run_0VcA")).toMatchObject({ mode: "id", kind: "run", whole: false });
    expect(parseSearch(`fi_${"a".repeat(32)}`)).toMatchObject({ mode: "id", kind: "file", whole: true });
    expect(parseSearch("dlv_0VcACX4G")).toMatchObject({ mode: "id", kind: "delivery" });
  });

  it("does not read a prefix under 8 characters, an unknown prefix or a wrong alphabet as an id", () => {
    expect(parseSearch("run_0Vc").mode).toBe("text");
    expect(parseSearch("user_12345678").mode).toBe("text");
    expect(parseSearch("fi_ABCDEFGHIJ").mode).toBe("text");
  });

  it("reads field:value, refusing a bad field name; http(s) URLs are words", () => {
    expect(parseSearch("order_id:1234")).toMatchObject({ mode: "field", field: "order_id", value: "1234" });
    expect(parseSearch("customer.tier: gold")).toMatchObject({ mode: "field", field: "customer.tier", value: "gold" });
    expect(code(() => parseSearch("or$der:1"))).toBe("invalid_search_field");
    expect(code(() => parseSearch("a..b:1"))).toBe("invalid_search_field");
    expect(code(() => parseSearch(`${"f".repeat(65)}:1`))).toBe("invalid_search_field");
    expect(parseSearch("https://example.com/x").mode).toBe("text");
  });

  it("refuses more than 200 characters", () => {
    expect(code(() => parseSearch("x".repeat(201)))).toBe("search_query_too_long");
    expect(parseSearch("x".repeat(200)).mode).toBe("text");
  });
});

describe("containments", () => {
  it("nests dotted fields and adds the number and boolean readings", () => {
    expect(containments("order_id", "1234")).toEqual(['{"order_id":"1234"}', '{"order_id":1234}']);
    expect(containments("a.b", "true")).toEqual(['{"a":{"b":"true"}}', '{"a":{"b":true}}']);
    expect(containments("plan", "pro")).toEqual(['{"plan":"pro"}']);
  });
});

describe("snippet", () => {
  it("keeps short text and cuts long text around the first word found", () => {
    expect(snippet("  a  short\ntext ")).toBe("a short text");
    const long = `${"x ".repeat(200)}needle ${"y ".repeat(200)}`;
    const s = snippet(long, ["needle"]);
    expect(s).toContain("needle");
    expect(s.startsWith("…")).toBe(true);
  });
});

describe("hrefOf", () => {
  it("opens an Access Key's own page, not the keys list", () => {
    expect(hrefOf("access_key", "key_0VcACX4GHpu2GRQzMJGn2Z")).toBe("/keys/key_0VcACX4GHpu2GRQzMJGn2Z");
    expect(hrefOf("run", "run_0VcACX4GHpu2GRQzMJGn2Z")).toBe("/runs/run_0VcACX4GHpu2GRQzMJGn2Z");
  });
});
