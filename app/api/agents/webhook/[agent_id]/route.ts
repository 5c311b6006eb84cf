// The trigger (docs/api.md, Trigger): one JSON object (1 MiB); the agent's kind decides between a message and a run.
import { withAccessKey } from "@/lib/http/handler";
import { conversationTrigger, runTrigger } from "./triggers";
import * as contract from "./contract";

export const POST = withAccessKey(contract.POST, (c) =>
  c.agent.kind === "conversational"
    ? conversationTrigger(c)
    : runTrigger(
        c,
        c.body,
        (runId, agentVersion) => ({
          run_id: runId,
          status: "pending",
          agent_id: c.agent.id,
          agent_version: agentVersion,
        }),
        { inputsAreBody: true },
      ),
);
