// The configuration reference cannot drift from the env schema: docs/deploy.md's section is a fresh
// generation, and every variable describes itself in the schema.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ENV_VARIABLES } from "../lib/env";
import { CONFIG_DOC, configEntries, freshConfigDoc, undescribed } from "./config-reference";

describe("configuration reference (docs/deploy.md)", () => {
  it("equals a fresh generation from lib/env.ts (run `npm run gen:config` after changing the schema)", () => {
    const committed = readFileSync(CONFIG_DOC, "utf8");
    expect(
      committed === freshConfigDoc(),
      "docs/deploy.md's configuration reference is stale: run `npm run gen:config`",
    ).toBe(true);
  });

  it("reads every variable, its default and allowed values from the schema", () => {
    const entries = new Map(configEntries().map((e) => [e.name, e]));
    expect([...entries.keys()]).toEqual(ENV_VARIABLES);
    expect(undescribed()).toEqual([]);
    expect(entries.get("PORT")).toMatchObject({ default: "`3000`", allowed: "integer 0–65535" });
    expect(entries.get("RUN_WORKER")).toMatchObject({
      default: "`true`",
      allowed: expect.stringMatching(/^`true`\/`false`/),
    });
    expect(entries.get("LOG_LEVEL")?.allowed).toContain("`silent`");
    expect(entries.get("DATABASE_URL")).toMatchObject({ default: "unset", allowed: "`postgres://` URL" });
    expect(entries.get("UPSTREAM_ALLOWLIST")?.default).toBe("empty");
    expect(entries.get("WORKER_PORT")?.description).toMatch(/npm run worker/);
  });
});
