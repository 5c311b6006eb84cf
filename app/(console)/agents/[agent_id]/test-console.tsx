"use client";
// The test console: a draft conversation with a conversational agent, or a run of a workflow agent
// started by hand. Console sessions are drafts: listed in the console, never in the public API.
import type { Agent } from "@/components/console/queries";
import { ChatConsole } from "./chat-console";
import { RunConsole } from "./run-console";

export function TestConsole({ agent }: { agent: Agent }) {
  return agent.kind === "workflow" ? <RunConsole agent={agent} /> : <ChatConsole agent={agent} />;
}
