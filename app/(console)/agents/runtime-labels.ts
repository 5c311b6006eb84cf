// How the console names the agent runtimes (the runtime types are those of lib/runtime/schema.ts).
import type { AgentRecord } from "@/lib/agents/schemas";

export type AgentKind = AgentRecord["kind"];
export type RuntimeType = AgentRecord["runtime"]["type"];
export type WorkflowDefinition = NonNullable<AgentRecord["workflow"]>;

export const RUNTIME_LABELS: Record<RuntimeType, string> = {
  echo: "echo (built-in test runtime)",
  openai: "openai (OpenAI-compatible chat API)",
  http: "http (your own endpoint)",
};
