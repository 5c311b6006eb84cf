import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { resetEnvCache } from "./env";
import { createLogger } from "./log";

describe("logger", () => {
  it("redacts Authorization headers, keys, tokens and passwords wherever they appear", () => {
    process.env.LOG_LEVEL = "info";
    resetEnvCache();
    let out = "";
    const sink = new Writable({
      write(chunk, _enc, cb) {
        out += chunk.toString();
        cb();
      },
    });
    const logger = createLogger(sink);
    const secret = "ak_SECRETSECRETSECRETSECRETSECRETSECRETSECRE";
    logger.info({ headers: { authorization: `Bearer ${secret}` } }, "a");
    logger.info({ req: { headers: { authorization: `Bearer ${secret}` } } }, "b");
    logger.info({ key: secret, body: { token: secret, password: secret } }, "c");
    expect(out.split("\n").filter(Boolean)).toHaveLength(3);
    expect(out).not.toContain(secret);
    expect(out).toContain("[redacted]");
  });
});
