// The typed client cannot drift from the document: the committed types are a fresh generation.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLIENT_TYPES_FILE, generateClientTypes } from "./client-types";

describe("lib/client/schema.ts", () => {
  it("equals a fresh generation from the OpenAPI document (run `npm run gen:client` after changing it)", async () => {
    const committed = readFileSync(CLIENT_TYPES_FILE, "utf8");
    const fresh = await generateClientTypes();
    expect(fresh).toContain('"/api/agents/webhook/{agent_id}"');
    expect(committed === fresh, "lib/client/schema.ts is stale: run `npm run gen:client`").toBe(true);
  });
});
