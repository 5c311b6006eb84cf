import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "../env";
import { baseUrl } from "./base-url";

const SAVED = process.env.PUBLIC_URL;

describe("baseUrl", () => {
  afterEach(() => {
    if (SAVED === undefined) delete process.env.PUBLIC_URL;
    else process.env.PUBLIC_URL = SAVED;
    resetEnvCache();
  });

  it("uses the request's origin when PUBLIC_URL is unset", () => {
    delete process.env.PUBLIC_URL;
    resetEnvCache();
    expect(baseUrl(new Request("http://10.0.0.5:3000/api/agents/x/upload?a=1"))).toBe("http://10.0.0.5:3000");
  });

  it("prefers PUBLIC_URL, without a trailing slash", () => {
    process.env.PUBLIC_URL = "https://hooks.example.com/";
    resetEnvCache();
    expect(baseUrl(new Request("http://10.0.0.5:3000/x"))).toBe("https://hooks.example.com");
  });
});
