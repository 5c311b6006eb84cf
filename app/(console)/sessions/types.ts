// Shapes of the console's session and message answers (lib/conversations/sessions.ts).
export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface SessionItem {
  session_id: string;
  agent_id: string;
  agent_name: string;
  environment: "production" | "draft";
  status: string;
  channel: string;
  user_id: string;
  created_at: string;
  last_message_at: string;
  message_count: number;
  total_tokens: number;
}

export interface SessionDetail extends Omit<SessionItem, "total_tokens"> {
  organization_id: string;
  project_id: string;
  token_usage: TokenUsage;
  cost: number;
  metadata: Record<string, unknown>;
}

export interface MessageItem {
  message_id: string;
  role: "user" | "assistant";
  status: "processing" | "completed" | "error";
  content: string;
  created_at: string;
  model: string | null;
  token_usage: TokenUsage | null;
  cost: number | null;
  processing_time_ms: number | null;
  error: { code: string; message: string } | null;
}
