// The usage charts' windows (components/console/usage-charts.tsx): a range ending now, or whole
// days, and the query of GET .../usage that asks for one.

/** The usage charts' ranges: the hours each covers and the group of each point. */
export const USAGE_RANGES = {
  "24h": { hours: 24, groupBy: "hour" },
  "7d": { hours: 7 * 24, groupBy: "hour" },
  "30d": { hours: 30 * 24, groupBy: "day" },
} as const;
export type UsageRange = keyof typeof USAGE_RANGES;

/** What the charts show: a range ending now, or whole days (`YYYY-MM-DD`, both included, the viewer's zone). */
export type UsageWindow = { range: UsageRange } | { from: string; to: string };

/** A custom window's instants and grouping: hourly up to 7 days, daily beyond. */
export function customWindow(w: { from: string; to: string }) {
  const from = new Date(`${w.from}T00:00:00`);
  const to = new Date(`${w.to}T00:00:00`);
  to.setDate(to.getDate() + 1);
  const groupBy: "hour" | "day" = to.getTime() - from.getTime() > 7 * 86_400_000 ? "day" : "hour";
  return { from, to, groupBy };
}

/** The query of one read of the window: a range ends at the moment it is asked, so each poll moves it. */
export function usageQuery(w: UsageWindow, scope: { agentId?: string; keyId?: string }) {
  let from: Date, to: Date, groupBy: "hour" | "day";
  if ("range" in w) {
    const preset = USAGE_RANGES[w.range];
    to = new Date();
    from = new Date(to.getTime() - preset.hours * 3_600_000);
    groupBy = preset.groupBy;
  } else ({ from, to, groupBy } = customWindow(w));
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    group_by: groupBy,
    agent_id: scope.agentId,
    key_id: scope.keyId,
  };
}
