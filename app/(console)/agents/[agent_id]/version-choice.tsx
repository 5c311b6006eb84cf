"use client";
// The test console's "Version to try" (docs/console.md, Versions): the published version, a
// rollout's canary and the draft (the test console alone may send the draft). One of them only:
// nothing to choose, and the trigger names none.
import { useState } from "react";
import type { AgentRecord } from "@/lib/agents/schemas";
import { SelectField } from "@/components/ui/field";

function versionChoices(agent: AgentRecord): (readonly [number, string])[] {
  const choices: (readonly [number, string])[] = [
    [agent.published_version, `Published (version ${agent.published_version})`],
  ];
  if (agent.rollout) choices.push([agent.rollout.version, `Canary (version ${agent.rollout.version})`]);
  if (agent.draft_version !== null) choices.push([agent.draft_version, `Draft (version ${agent.draft_version})`]);
  return choices.length > 1 ? choices : [];
}

/** The version to send (null: none to name) and its field, which says what answers show. */
export function useVersionChoice(agent: AgentRecord, hint: string) {
  const choices = versionChoices(agent);
  const [chosen, setChosen] = useState<number>(agent.published_version);
  // The version sent: the one chosen while it is still offered (a draft published meanwhile is not).
  const version = choices.some(([v]) => v === chosen) ? chosen : choices.length ? agent.published_version : null;
  const field =
    choices.length > 0 ? (
      <SelectField
        label="Version to try"
        className="max-w-xs"
        value={version ?? agent.published_version}
        options={choices}
        onValue={(v) => setChosen(Number(v))}
        hint={hint}
      />
    ) : null;
  return { version, field };
}
