import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV_VARIABLES, parseEnv } from "./env";

/** The variables named in the first column of the README's configuration table. */
function readmeVariables(): string[] {
  const readme = readFileSync(path.resolve(import.meta.dirname, "../README.md"), "utf8");
  const lines = readme.split("\n");
  const start = lines.findIndex((l) => /^\|\s*variable\s*\|\s*default\s*\|\s*meaning\s*\|/.test(l));
  expect(start, "the README has a configuration table").toBeGreaterThan(-1);
  const names: string[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const first = line.split("|")[1]!;
    names.push(...[...first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
  }
  return names;
}

describe("configuration", () => {
  it("documents in the README exactly the variables of the env schema", () => {
    const documented = readmeVariables();
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented].sort()).toEqual([...ENV_VARIABLES].sort());
  });
});

describe("outgoing email settings", () => {
  const smtp = { SMTP_URL: "smtp://mailer:secret@mail.example:587" };

  it("needs PUBLIC_URL with SMTP_URL: emailed links never come from a request's Host", () => {
    expect(() => parseEnv(smtp)).toThrow(/SMTP_URL: needs PUBLIC_URL/);
    expect(parseEnv({ ...smtp, PUBLIC_URL: "https://dash.example" }).SMTP_URL).toBe(smtp.SMTP_URL);
    expect(parseEnv({}).SMTP_URL).toBeUndefined();
  });

  it("takes smtp:// and smtps:// only, and a one-line sender", () => {
    const base = { PUBLIC_URL: "https://dash.example" };
    expect(() => parseEnv({ ...base, SMTP_URL: "http://mail.example" })).toThrow(/SMTP_URL: must be an smtp/);
    expect(parseEnv({ ...base, SMTP_URL: "smtps://u:p@mail.example:465" }).SMTP_URL).toMatch(/^smtps:/);
    expect(() => parseEnv({ ...base, SMTP_FROM: "a@b.example\r\nBcc: c@d.example" })).toThrow(/SMTP_FROM/);
  });
});
