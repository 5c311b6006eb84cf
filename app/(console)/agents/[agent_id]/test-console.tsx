"use client";
// The test console: a draft conversation with a conversational agent, or a run of a workflow agent
// started by hand. Console sessions are drafts: listed in the console, never in the public API.
import type { AgentRecord } from "@/lib/agents/schemas";
import { ChatConsole } from "./chat-console";
import { RunConsole } from "./run-console";

export function TestConsole({ agent }: { agent: AgentRecord }) {
  return agent.kind === "workflow" ? <RunConsole agent={agent} /> : <ChatConsole agent={agent} />;
}
