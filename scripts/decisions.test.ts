// docs/decisions.md cannot drift from its records: the index lists every record, numbered 1 to the
// last, under the record's own title, and a record that supersedes or amends an earlier one is named
// in that one's status (and the other way round).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const DECISIONS = path.join(import.meta.dirname, "..", "docs", "decisions.md");

interface Record {
  number: number;
  title: string;
  status: string;
}

function indexOf(text: string): { number: number; title: string }[] {
  const section = /^## Index\n([\s\S]*?)(?=^## )/m.exec(text);
  if (!section) return [];
  return [...section[1]!.matchAll(/^(\d+)\. (.+)$/gm)].map((m) => ({ number: Number(m[1]), title: m[2]! }));
}

function recordsOf(text: string): Record[] {
  const heads = [...text.matchAll(/^## (\d+)\. (.+)$/gm)];
  return heads.map((m, i) => {
    const body = text.slice(m.index, heads[i + 1]?.index ?? text.length);
    const status = /^\*\*Status\.\*\* (.+)$/m.exec(body)?.[1] ?? "";
    return { number: Number(m[1]), title: m[2]!, status };
  });
}

/** The numbers a status names after `word` ("amended by 38, 40" -> [38, 40]). */
function named(status: string, word: string): number[] {
  const m = new RegExp(`${word} (\\d+(?:, \\d+)*)`).exec(status);
  return m ? m[1]!.split(", ").map(Number) : [];
}

/** Every disagreement between the index, the records and their statuses, as sentences. */
function problems(text: string): string[] {
  const out: string[] = [];
  const records = recordsOf(text);
  const byNumber = new Map(records.map((r) => [r.number, r]));
  records.forEach((r, i) => {
    if (r.number !== i + 1) out.push(`record ${r.number} is in place ${i + 1}`);
  });
  const index = indexOf(text);
  const listed = new Map(index.map((e) => [e.number, e.title]));
  for (const r of records) {
    if (!listed.has(r.number)) out.push(`record ${r.number} is missing from the index`);
    else if (listed.get(r.number) !== r.title)
      out.push(`record ${r.number}: the index says "${listed.get(r.number)}", the record "${r.title}"`);
  }
  for (const e of index) if (!byNumber.has(e.number)) out.push(`the index lists ${e.number}, which is no record`);
  for (const r of records) {
    if (!/^(accepted|superseded by \d+)/.test(r.status)) out.push(`record ${r.number} has no status`);
    const pairs: [string, string][] = [
      ["superseded by", "supersedes"],
      ["amended by", "amends"],
      ["supersedes", "superseded by"],
      ["amends", "amended by"],
    ];
    for (const [word, back] of pairs) {
      for (const n of named(r.status, word)) {
        const other = byNumber.get(n);
        const later = word.endsWith("by");
        if (!other) out.push(`record ${r.number} says "${word} ${n}", which is no record`);
        else if (later !== n > r.number)
          out.push(`record ${r.number} says "${word} ${n}" of a record on the wrong side`);
        else if (!named(other.status, back).includes(r.number))
          out.push(`record ${r.number} says "${word} ${n}", but ${n}'s status does not say "${back} ${r.number}"`);
      }
    }
  }
  return out;
}

describe("docs/decisions.md", () => {
  const text = readFileSync(DECISIONS, "utf8");

  it("indexes every record under its own title, and statuses that name each other", () => {
    expect(recordsOf(text).length).toBeGreaterThan(50);
    expect(problems(text)).toEqual([]);
  });

  it("finds a record left out of the index, a changed title and a one-sided amendment", () => {
    const records = recordsOf(text);
    const last = records.at(-1)!;
    const withoutLast = text.replace(new RegExp(`^${last.number}\\. .+\\n`, "m"), "");
    expect(problems(withoutLast)).toEqual([`record ${last.number} is missing from the index`]);
    const retitled = text.replace(/^## 2\. (.+)$/m, "## 2. $1, renamed");
    expect(problems(retitled)).toEqual([expect.stringMatching(/^record 2: the index says /)]);
    const oneSided = text.replace("**Status.** accepted; amends 36", "**Status.** accepted");
    expect(problems(oneSided)).toEqual([`record 36 says "amended by 39", but 39's status does not say "amends 36"`]);
  });
});
