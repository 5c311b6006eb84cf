import { describe, expect, it } from "vitest";
import { luhn, MARKER, redactor, rulesOf } from "./redact";

const all = redactor({ emails: true, phones: true, cards: true, fields: ["ssn", "Secret_Note"] });

describe("redactor: what it replaces", () => {
  it.each([
    ["write to jane.doe+tag@example.co.uk today", `write to ${MARKER.email} today`],
    ["a@b.io,c@d.org", `${MARKER.email},${MARKER.email}`],
    ["card 4111 1111 1111 1111 ok", `card ${MARKER.card} ok`],
    ["card 4111-1111-1111-1111.", `card ${MARKER.card}.`],
    ["amex 378282246310005", `amex ${MARKER.card}`],
    ["mc 5555555555554444", `mc ${MARKER.card}`],
    ["call +1 415 555 0123 now", `call ${MARKER.phone} now`],
    ["call +14155550123", `call ${MARKER.phone}`],
    ["call +44 20 7946 0958", `call ${MARKER.phone}`],
    ["call (415) 555-0123", `call ${MARKER.phone}`],
    ["call 415-555-0123 or 415.555.0123", `call ${MARKER.phone} or ${MARKER.phone}`],
    ["ruf 030 1234567 an", `ruf ${MARKER.phone} an`],
    ["tel 020 7946 0958", `tel ${MARKER.phone}`],
    // Internationalised addresses (RFC 6531), full-width `＠`.
    ["écrire à josé.müller@exämple.de merci", `écrire à ${MARKER.email} merci`],
    ["联系 用户@例子.广告 谢谢", `联系 ${MARKER.email} 谢谢`],
    ["пишите иван@пример.рф", `пишите ${MARKER.email}`],
    ["mail ｊａｎｅ＠ｅｘａｍｐｌｅ．ｃｏｍ!", `mail ${MARKER.email}!`],
    // The 00 international prefix.
    ["call 0044 20 7946 0958 now", `call ${MARKER.phone} now`],
    ["call 0049-30-1234567", `call ${MARKER.phone}`],
    ["call 001 415 555 0123", `call ${MARKER.phone}`],
    // Cards separated by dots or double spaces, and in full-width digits.
    ["card 4111.1111.1111.1111 ok", `card ${MARKER.card} ok`],
    ["card 4111  1111  1111  1111 ok", `card ${MARKER.card} ok`],
    ["amex 3782.822463.10005", `amex ${MARKER.card}`],
    ["card ４１１１ １１１１ １１１１ １１１１ ok", `card ${MARKER.card} ok`],
    ["card ４１１１１１１１１１１１１１１１", `card ${MARKER.card}`],
    ["tel ＋４４ ２０ ７９４６ ０９５８", `tel ${MARKER.phone}`],
    // The text around a match is kept as written, not normalized.
    ["ｆｕｌｌ width ﬁne: 4111 1111 1111 1111", `ｆｕｌｌ width ﬁne: ${MARKER.card}`],
    ["a@b.io and x@y.com", `${MARKER.email} and ${MARKER.email}`],
  ])("%s", (input, expected) => {
    expect(all.text(input)).toBe(expected);
  });

  it("replaces named fields at any depth, case-insensitively, only where asked", () => {
    const value = { a: { SSN: "123-45-6789", list: [{ secret_note: { deep: 1 } }] }, ssn_other: "x" };
    expect(all.apply(value, { fields: true })).toEqual({
      a: { SSN: MARKER.field, list: [{ secret_note: MARKER.field }] },
      ssn_other: "x",
    });
    expect(all.apply({ ssn: "kept" })).toEqual({ ssn: "kept" });
  });

  it("redacts strings inside arrays and objects, leaving numbers and booleans", () => {
    expect(all.apply({ n: 4111111111111111, ok: true, s: ["x@y.com"] })).toEqual({
      n: 4111111111111111,
      ok: true,
      s: [MARKER.email],
    });
  });

  it("records its rules in a stable order", () => {
    expect(rulesOf({ emails: true, phones: false, cards: true, fields: [" ssn ", "ssn", "dob"] })).toEqual([
      "emails",
      "cards",
      "field:ssn",
      "field:dob",
    ]);
    expect(redactor({ emails: false, phones: false, cards: false, fields: [] }).rules).toEqual([]);
  });

  it("checks Luhn", () => {
    expect(luhn("4111 1111 1111 1111")).toBe(true);
    expect(luhn("4111 1111 1111 1112")).toBe(false);
  });
});

describe("redactor: what it leaves alone (false positives)", () => {
  it.each([
    "4111 1111 1111 1112", // fails Luhn
    "2026-11-27T09:00:03.123Z",
    "2026-11-27 09:00:03",
    "1732694400000", // Unix time in ms (13 digits, passes Luhn, starts with 1)
    "1732694400", // Unix time in s
    "run_0Ab3xYz12345678901234", // our ids
    "sess_4111111111111111aBcD",
    "fi_0192a4b1c2d3e4f5a6b7c8d9e0f1a2b3",
    "123e4567-e89b-12d3-a456-426614174000", // UUID
    "order 123456789012", // a bare number is no phone
    "total 1,234,567.89",
    "version 10.0.19045.3693",
    "ip 192.168.100.200",
    "2026-11-27",
    "10:40:00",
    "4111111111111111111111111", // too long for a card
    "user@localhost", // no top-level domain
    "price 4111111111111111.50",
    "4111.1111.1111.1112", // dotted, fails Luhn
    "ip 292.168.100.200", // dotted groups, too few digits
    "v 4.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1", // single digits are no card groups
    "invoice 00123456789", // zero-padded, no separator: no phone
    "code 0044", // a prefix alone
    "ｆｕｌｌ-width text ﬁne", // normalization changes nothing without a match
    "user@localhost", // still no top-level domain
  ])("%s", (input) => {
    expect(all.text(input)).toBe(input);
  });
});

describe("redactor: adversarial inputs stay linear", () => {
  // These finish in microseconds with linear patterns and would not finish with backtracking
  // ones; the assertion is on the result, the suite's own timeout catches a regression.
  it("a long run of digits", () => {
    const s = "4".repeat(200_000);
    expect(all.text(s)).toBe(s);
  });
  it("digits with separators", () => {
    const s = "4 ".repeat(100_000) + "x";
    expect(all.text(s)).not.toContain("undefined");
  });
  it("many @", () => {
    const s = "a@".repeat(100_000);
    expect(all.text(s)).toBe(s);
  });
  it("long local parts and labels", () => {
    const s = "a".repeat(100_000) + "@" + "b.".repeat(50_000);
    expect(all.text(s)).toBe(s);
  });
  it("full-width digits and many internationalised @", () => {
    const s = "４ ".repeat(50_000) + "é@".repeat(50_000);
    expect(all.text(s)).toBe(s);
  });
  it("dotted digit groups", () => {
    const s = "4111.".repeat(100_000);
    expect(all.text(s)).toBe(s);
  });
  it("a long run of plus signs and digits", () => {
    const s = "+1".repeat(100_000);
    expect(all.text(s).length).toBeGreaterThan(0);
  });
});
