// Credentials of upstream calls (lib/runtime/credentials.ts): a secret's value never shows in an
// error, whatever it holds.
import { describe, expect, it } from "vitest";
import { openAiKey, upstreamHeaders } from "./credentials";
import { isRuntimeError } from "./types";

/** Every run of 4 characters of `value`: what a log or a message must not carry. */
const runsOf = (value: string) => Array.from({ length: value.length - 3 }, (_, i) => value.slice(i, i + 4));

describe("secrets no header can carry (stored before values were checked)", () => {
  const LEGACY = "tok€n-Zq\u0085value-9f3a";
  const lookup = async (name: string) => (name === "legacy" ? LEGACY : undefined);

  it("fail the call naming the secret, never its characters, their position or code point", async () => {
    for (const call of [
      () => upstreamHeaders({ authorization: "Bearer {{secrets.legacy}}" }, lookup),
      () => openAiKey({ api_key_secret: "legacy", base_url: "https://api.example.com/v1" }, lookup),
    ]) {
      const err = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(isRuntimeError(err)).toBe(true);
      const { message, publicMessage } = err as { message: string; publicMessage?: string };
      expect(message).toContain('"legacy"');
      for (const text of [message, publicMessage ?? ""]) {
        for (const run of runsOf(LEGACY)) expect(text).not.toContain(run);
        expect(text).not.toMatch(/8364|0x85|index|position|character at/i);
      }
    }
  });

  it("pass a value a header can carry, Latin-1 included", async () => {
    const ok = async () => "clé-Überprüfung 123";
    expect(await upstreamHeaders({ "x-key": "{{secrets.k}}" }, ok)).toEqual({ "x-key": "clé-Überprüfung 123" });
  });
});
