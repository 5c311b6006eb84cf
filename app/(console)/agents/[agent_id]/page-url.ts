"use client";
// The agent page's URL: the tab, the two versions compared, whether superseded drafts show, and
// the versions' page (docs/console.md, Versions).
import { useUrlParams } from "@/components/console/url-params";

export const useAgentPageUrl = () => useUrlParams({ tab: "overview", from: "", to: "", superseded: "" }, { limit: 20 });
export type AgentPageUrl = ReturnType<typeof useAgentPageUrl>;
