import { describe, expect, it } from "vitest";
import { parsePrefer } from "./prefer";

describe("Prefer header (RFC 7240)", () => {
  it.each([
    [null, { respondAsync: false }],
    ["respond-async", { respondAsync: true }],
    ["Respond-Async, wait=10", { respondAsync: true, waitSeconds: 10 }],
    ['wait="3"; foo', { respondAsync: false, waitSeconds: 3 }],
    ["wait=soon, return=minimal", { respondAsync: false }],
  ])("reads %s", (header, expected) => {
    expect(parsePrefer(header)).toEqual(expected);
  });
});
