// How the console names the agent runtimes (the runtime types are those of lib/runtime/schema.ts).
import type { Agent } from "@/components/console/queries";

export type AgentKind = Agent["kind"];
export type RuntimeType = Agent["runtime"]["type"];
export type WorkflowDefinition = NonNullable<Agent["workflow"]>;

export const RUNTIME_LABELS: Record<RuntimeType, string> = {
  echo: "echo (built-in test runtime)",
  openai: "openai (OpenAI-compatible chat API)",
  http: "http (your own endpoint)",
};
