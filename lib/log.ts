// Structured logs (pino). Request headers are never logged; the redaction below is a second line
// of defence in case a header object reaches a log call.
import pino from "pino";
import { env } from "./env";
import { processOnce } from "./process-state";

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

export const log: pino.Logger = processOnce("logger", createLogger);
