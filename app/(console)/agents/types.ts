// The agent record of /api/console/agents (lib/agents/service.ts agentRecord) as the pages use it.
export type AgentKind = "conversational" | "workflow";
export type RuntimeType = "echo" | "openai" | "http";

export interface Agent {
  agent_id: string;
  organization_id: string;
  project_id: string;
  name: string;
  kind: AgentKind;
  runtime: { type: RuntimeType } & Record<string, unknown>;
  workflow: WorkflowDefinition | null;
  created_at: string;
  updated_at: string;
  /** Set once the agent is archived: no new triggers or uploads; its data stays readable. */
  archived_at: string | null;
  /** The default callback URL of the agent's triggers (a trigger's own wins); null: none. */
  callback_url: string | null;
}

export interface WorkflowDefinition {
  inputs?: Record<string, { type: string; required?: boolean; description?: string }>;
  items?: { from: string; format?: string };
  steps: { id: string; type: string }[];
  output?: { filename: string; format: string };
}

export const RUNTIME_LABELS: Record<RuntimeType, string> = {
  echo: "echo (built-in test runtime)",
  openai: "openai (OpenAI-compatible chat API)",
  http: "http (your own endpoint)",
};
