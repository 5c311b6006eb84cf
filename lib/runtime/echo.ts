// The built-in deterministic runtime: same input, same reply and token counts. Used as the embedded
// default, in demos and in tests (its `fail` hook simulates upstream failures).
import type { EchoRuntime } from "./schema";
import { countWords, RuntimeError, sleep, usage, type ReplyOutput } from "./types";
import type { z } from "zod";

type EchoConfig = z.infer<typeof EchoRuntime>;

/** How long fail:"timeout" hangs when the config sets no timeout_ms: short, so tests stay fast. */
const DEFAULT_HANG_MS = 1_000;

export async function echoReply(
  config: EchoConfig,
  opts: { message: string; history?: { content: string }[]; filenames?: string[]; signal?: AbortSignal },
): Promise<ReplyOutput> {
  if (config.fail === "error") throw new RuntimeError("error", "echo runtime: fail hook (error)", false);
  if (config.fail === "timeout") {
    await sleep(config.timeout_ms ?? DEFAULT_HANG_MS, opts.signal);
    throw new RuntimeError("timeout", "echo runtime: fail hook (timeout)", true);
  }
  if (config.delay_ms > 0) {
    if (config.timeout_ms !== undefined && config.delay_ms > config.timeout_ms) {
      await sleep(config.timeout_ms, opts.signal);
      throw new RuntimeError("timeout", `echo runtime: delay ${config.delay_ms} ms over timeout`, true);
    }
    await sleep(config.delay_ms, opts.signal);
  }
  const files = opts.filenames ?? [];
  const content = `Echo: ${opts.message}` + (files.length ? ` [attachments: ${files.join(", ")}]` : "");
  const prompt = countWords(opts.message) + (opts.history ?? []).reduce((n, m) => n + countWords(m.content), 0);
  return { content, model: "echo", token_usage: usage(prompt, countWords(content)), cost: 0 };
}
