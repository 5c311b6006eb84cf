// Structured logs (pino). Request headers are never logged; the redaction below is a second line
// of defence in case a header object reaches a log call.
import pino from "pino";
import { env } from "./env";

const g = globalThis as unknown as { __awsLogger?: pino.Logger };

export const REDACT_PATHS = [
  "authorization",
  "headers.authorization",
  "req.headers.authorization",
  "request.headers.authorization",
  "*.authorization",
  "key",
  "*.key",
  "token",
  "*.token",
  "user_token",
  "password",
  "*.password",
];

export function createLogger(destination?: pino.DestinationStream): pino.Logger {
  return pino(
    { level: env().LOG_LEVEL, redact: { paths: REDACT_PATHS, censor: "[redacted]" }, base: undefined },
    destination,
  );
}

export const log: pino.Logger = (g.__awsLogger ??= createLogger());
