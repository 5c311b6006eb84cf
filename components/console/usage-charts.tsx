"use client";
// Usage charts (docs/console.md, Usage charts): triggers and error rate, reply latency p50/p95,
// tokens and cost, runs by outcome, over the last 24 hours, 7 days, 30 days or chosen days (kept in
// the URL: `?usage=7d`, `?usage=custom&usage_from=...&usage_to=...`), from the hourly rollups (GET
// the organization API's /usage; never the messages). Each chart has its data as a table: always in the page
// for screen readers, and shown in place of the chart by "Show as table".
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactNode } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { apiKey, request } from "@/components/console/use-api";
import {
  customWindow,
  usageQuery,
  USAGE_RANGES,
  type UsageRange,
  type UsageWindow,
} from "@/components/console/usage-window";
import { useUrlParams } from "@/components/console/url-params";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/misc";
import { EmptyState, ErrorState, Skeleton } from "@/components/ui/states";
import { USAGE_MAX_DAYS, type UsageFigures } from "@/lib/usage/schemas";

const USAGE = "GET /api/v1/organizations/[org_id]/usage";

type Point = UsageFigures & { group: string };

interface Series {
  key: string;
  label: string;
  color: string;
  value: (p: Point) => number | null;
  format?: (n: number) => string;
  /** A column of the table only: not drawn (its scale is not the chart's). */
  tableOnly?: boolean;
}

const RANGE_LABELS: Record<UsageRange, string> = { "24h": "24 hours", "7d": "7 days", "30d": "30 days" };

const pct = (n: number) => `${(n * 100).toFixed(1)} %`;
const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${n} ms`);
const usd = (n: number) => `$${n.toFixed(n < 1 ? 4 : 2)}`;

/** The window the charts show, in words, and how its points are labelled. */
interface Shown {
  /** "last 24 hours", "Nov 1 to Nov 10". */
  caption: string;
  /** "in the last 24 hours", "from Nov 1 to Nov 10". */
  phrase: string;
  /** Points are days (else hours), and the window spans more than one day. */
  daily: boolean;
  multiDay: boolean;
}

const day = (d: Date) => d.toLocaleDateString(undefined, { month: "short", day: "numeric" });

function shownOf(w: UsageWindow): Shown {
  if ("range" in w) {
    const words = `last ${RANGE_LABELS[w.range]}`;
    return { caption: words, phrase: `in the ${words}`, daily: w.range === "30d", multiDay: w.range !== "24h" };
  }
  const { from, to, groupBy } = customWindow(w);
  const last = new Date(to.getTime() - 1);
  const words = w.from === w.to ? day(from) : `${day(from)} to ${day(last)}`;
  return {
    caption: words,
    phrase: w.from === w.to ? `on ${words}` : `from ${words}`,
    daily: groupBy === "day",
    multiDay: w.from !== w.to,
  };
}

/** The label of a point: the hour or the day, in the viewer's zone. */
function pointLabel(group: string, shown: Shown): string {
  const d = new Date(group);
  if (shown.daily) return day(d);
  if (shown.multiDay) return d.toLocaleString(undefined, { weekday: "short", hour: "2-digit" });
  return d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

/** The Y axis's width for its longest label (a fixed width clipped "1.5 s" and "$0.0123"). */
function axisWidth(labels: string[]): number {
  const longest = Math.max(1, ...labels.map((l) => l.length));
  return Math.min(96, Math.max(36, Math.ceil(longest * 7) + 12));
}

function DataTable({
  caption,
  points,
  series,
  shown,
  hidden,
}: {
  caption: string;
  points: Point[];
  series: Series[];
  shown: Shown;
  /** Only for screen readers (the chart shows the same figures). */
  hidden?: boolean;
}) {
  const className = hidden ? "sr-only" : undefined;
  return (
    <div className={className}>
      {/* Visible, it scrolls: the keyboard reaches it (tabIndex) and it is named by its caption. */}
      <div
        className={hidden ? undefined : "max-h-64 overflow-auto"}
        {...(hidden ? {} : { tabIndex: 0, role: "region", "aria-label": caption })}
      >
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="sticky top-0 bg-white">
            <tr>
              <th scope="col" className="px-2 py-1 font-medium text-zinc-700">
                {shown.daily ? "Day" : "Hour"}
              </th>
              {series.map((s) => (
                <th key={s.key} scope="col" className="px-2 py-1 text-right font-medium text-zinc-700">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.group} className="border-t border-zinc-100">
                <th scope="row" className="px-2 py-1 font-normal whitespace-nowrap text-zinc-700">
                  {pointLabel(p.group, shown)}
                </th>
                {series.map((s) => {
                  const v = s.value(p);
                  return (
                    <td key={s.key} className="px-2 py-1 text-right tabular-nums">
                      {v === null ? "–" : (s.format ?? String)(v)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function ChartCard({
  title,
  points,
  series,
  shown,
  kind,
  empty,
  emptyText,
}: {
  title: string;
  points: Point[];
  series: Series[];
  shown: Shown;
  kind: "bar" | "line";
  empty: boolean;
  emptyText: string;
}) {
  const [asTable, setAsTable] = useState(false);
  const drawn = series.filter((s) => !s.tableOnly);
  const data = points.map((p) => ({
    label: pointLabel(p.group, shown),
    ...Object.fromEntries(drawn.map((s) => [s.key, s.value(p)])),
  }));
  const tableCaption = `${title}, ${shown.caption}`;
  const tick = (v: number) =>
    series[0]?.format === pct ? `${Math.round(v * 100)}%` : (series[0]?.format ?? String)(v);
  // The axis's ticks run to a rounded value above the largest point (to 100 % for a rate).
  const largest = Math.max(0, ...points.flatMap((p) => drawn.map((s) => s.value(p) ?? 0)));
  const top = series[0]?.format === pct ? 1 : largest * 1.25;
  const yWidth = axisWidth([0, largest, top].map(tick));
  let body: ReactNode;
  if (empty) {
    body = <EmptyState title={`No ${title.toLowerCase()} ${shown.phrase}`}>{emptyText}</EmptyState>;
  } else if (asTable) {
    body = <DataTable caption={tableCaption} points={points} series={series} shown={shown} />;
  } else {
    const Chart = kind === "bar" ? BarChart : LineChart;
    body = (
      <>
        {/* The chart is a picture of the table below, which screen readers read instead. */}
        <div aria-hidden="true" className="h-52 w-full min-w-0">
          <ResponsiveContainer width="100%" height="100%">
            <Chart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
              <CartesianGrid strokeDasharray="3 3" stroke="#e4e4e7" />
              <XAxis dataKey="label" tick={{ fontSize: 11, fill: "#52525b" }} minTickGap={16} />
              <YAxis
                tick={{ fontSize: 11, fill: "#52525b" }}
                width={yWidth}
                domain={kind === "line" && series[0]?.format === pct ? [0, 1] : undefined}
                tickFormatter={tick}
              />
              <Tooltip formatter={(v, name) => [formatFor(series, String(name))(Number(v)), name]} />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              {drawn.map((s) =>
                kind === "bar" ? (
                  <Bar
                    key={s.key}
                    dataKey={s.key}
                    name={s.label}
                    stackId="a"
                    fill={s.color}
                    isAnimationActive={false}
                  />
                ) : (
                  <Line
                    key={s.key}
                    dataKey={s.key}
                    name={s.label}
                    stroke={s.color}
                    strokeWidth={2}
                    dot={{ r: 2 }}
                    connectNulls
                    isAnimationActive={false}
                  />
                ),
              )}
            </Chart>
          </ResponsiveContainer>
        </div>
        <DataTable caption={tableCaption} points={points} series={series} shown={shown} hidden />
      </>
    );
  }
  return (
    <Card
      title={title}
      actions={
        !empty && (
          <Button variant="secondary" size="sm" aria-pressed={asTable} onClick={() => setAsTable(!asTable)}>
            {asTable ? "Show as chart" : "Show as table"}
          </Button>
        )
      }
    >
      {body}
    </Card>
  );
}

const formatFor = (series: Series[], name: string) =>
  series.find((s) => s.label === name)?.format ?? ((n: number) => String(n));

const replies = (t: UsageFigures) => t.replies_completed + t.replies_failed;

/** The seven charts: what each shows, and when it has nothing to show. */
const CHARTS: Array<{
  title: string;
  kind: "bar" | "line";
  empty: (t: UsageFigures) => boolean;
  emptyText: string;
  series: Series[];
}> = [
  {
    title: "Triggers",
    kind: "bar",
    empty: (t) => t.triggers === 0,
    emptyText: "Messages sent to conversational agents show up here.",
    series: [{ key: "triggers", label: "Triggers", color: "#4f46e5", value: (p) => p.triggers }],
  },
  {
    title: "Error rate",
    kind: "line",
    empty: (t) => replies(t) === 0,
    emptyText: "The share of replies that ended in error shows up here.",
    series: [{ key: "error_rate", label: "Error rate", color: "#dc2626", value: (p) => p.error_rate, format: pct }],
  },
  {
    title: "Reply latency",
    kind: "line",
    empty: (t) => replies(t) === 0,
    emptyText: "How long replies took (median and 95th percentile) shows up here.",
    series: [
      { key: "p50", label: "p50", color: "#4f46e5", value: (p) => p.latency_p50_ms, format: ms },
      { key: "p95", label: "p95", color: "#b45309", value: (p) => p.latency_p95_ms, format: ms },
    ],
  },
  {
    title: "Tokens",
    kind: "bar",
    empty: (t) => t.prompt_tokens + t.completion_tokens === 0,
    emptyText: "Tokens the agents' models used show up here.",
    series: [
      { key: "prompt", label: "Prompt", color: "#4f46e5", value: (p) => p.prompt_tokens },
      { key: "completion", label: "Completion", color: "#0891b2", value: (p) => p.completion_tokens },
    ],
  },
  {
    title: "Cost",
    kind: "line",
    empty: (t) => t.cost === 0,
    emptyText: "What the replies cost, as the runtimes report it, shows up here.",
    series: [{ key: "cost", label: "Cost", color: "#15803d", value: (p) => p.cost, format: usd }],
  },
  {
    title: "Runs by outcome",
    kind: "bar",
    empty: (t) => t.runs_completed + t.runs_failed + t.runs_cancelled + t.runs_needs_review === 0,
    emptyText: "Workflow runs that completed, failed, were cancelled or wait for review show up here.",
    series: [
      { key: "completed", label: "Completed", color: "#15803d", value: (p) => p.runs_completed },
      { key: "failed", label: "Failed", color: "#dc2626", value: (p) => p.runs_failed },
      { key: "cancelled", label: "Cancelled", color: "#71717a", value: (p) => p.runs_cancelled },
      { key: "review", label: "Needs review", color: "#b45309", value: (p) => p.runs_needs_review },
    ],
  },
  {
    // Counted apart: none of the charts above includes an evaluation's replays.
    title: "Evaluation usage",
    kind: "line",
    empty: (t) => t.evaluation_cases === 0,
    emptyText:
      "Cases replayed by evaluations, their tokens and cost, counted apart from the charts above, show up here.",
    series: [
      { key: "evaluation_cost", label: "Cost", color: "#7c3aed", value: (p) => p.evaluation_cost, format: usd },
      { key: "evaluation_cases", label: "Cases", color: "#7c3aed", value: (p) => p.evaluation_cases, tableOnly: true },
      {
        key: "evaluation_tokens",
        label: "Tokens",
        color: "#7c3aed",
        value: (p) => p.evaluation_tokens,
        tableOnly: true,
      },
    ],
  },
];

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** The window kept in the URL; a custom one that does not hold falls back to the last 24 hours. */
function windowOf(f: { usage: string; usage_from: string; usage_to: string }): UsageWindow {
  if (f.usage === "custom" && !customError(f.usage_from, f.usage_to)) return { from: f.usage_from, to: f.usage_to };
  return { range: f.usage in USAGE_RANGES ? (f.usage as UsageRange) : "24h" };
}

/** What is wrong with a custom range, in the form's words, or undefined. */
function customError(from: string, to: string): string | undefined {
  if (!DAY_RE.test(from) || Number.isNaN(Date.parse(from))) return "Choose the first day.";
  if (!DAY_RE.test(to) || Number.isNaN(Date.parse(to))) return "Choose the last day.";
  if (from > to) return "The first day must be on or before the last day.";
  const { from: start, to: end } = customWindow({ from, to });
  if (end.getTime() - start.getTime() > USAGE_MAX_DAYS * 86_400_000) return `Choose at most ${USAGE_MAX_DAYS} days.`;
  return undefined;
}

const isoDay = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;

/** The custom range's form: two days and Apply; its error says what to fix. */
function CustomRange({ from, to, onApply }: { from: string; to: string; onApply: (from: string, to: string) => void }) {
  const today = isoDay(new Date());
  const [values, setValues] = useState({
    from: from || isoDay(new Date(Date.now() - 6 * 86_400_000)),
    to: to || today,
  });
  const [error, setError] = useState<string>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = customError(values.from, values.to);
    setError(problem);
    if (!problem) onApply(values.from, values.to);
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Custom range" className="mb-3 flex flex-wrap items-end gap-2">
      {(["from", "to"] as const).map((k) => (
        <label key={k} className="text-sm text-zinc-700">
          <span className="mb-1 block">{k === "from" ? "First day" : "Last day"}</span>
          <input
            type="date"
            value={values[k]}
            max={today}
            aria-invalid={!!error}
            aria-describedby={error ? "usage-range-error" : undefined}
            onChange={(e) => setValues({ ...values, [k]: e.target.value })}
            className="rounded-md border border-zinc-300 px-2 py-1 text-sm"
          />
        </label>
      ))}
      <Button type="submit" size="sm">
        Apply
      </Button>
      {error && (
        <p id="usage-range-error" role="alert" className="w-full text-sm text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}

/** The usage of the organization, or of one agent (`agent_id`) or one Access Key (`key_id`). */
export function UsageCharts({
  agent_id,
  key_id,
  className,
}: {
  agent_id?: string;
  key_id?: string;
  className?: string;
}) {
  const url = useUrlParams({ usage: "24h", usage_from: "", usage_to: "" }, { limit: 20 });
  const chosen = windowOf(url.filters);
  const custom = url.filters.usage === "custom";
  const [editing, setEditing] = useState(false);
  const shown = shownOf(chosen);
  // Keyed by the window, not by its instants: a range is asked anew, ending then, at each poll.
  const q = useQuery({
    queryKey: [...apiKey(USAGE), chosen, agent_id ?? "", key_id ?? ""],
    queryFn: ({ signal }) =>
      request(USAGE, { query: usageQuery(chosen, { agentId: agent_id, keyId: key_id }) }, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
  const points = q.data?.groups ?? [];
  const t = q.data?.totals;
  return (
    <section aria-labelledby="usage-heading" className={className}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="usage-heading" className="text-base font-semibold text-zinc-900">
          Usage <span className="text-sm font-normal text-zinc-600">({shown.caption})</span>
        </h2>
        <div role="group" aria-label="Usage range" className="flex flex-wrap gap-1">
          {(Object.keys(USAGE_RANGES) as UsageRange[]).map((r) => {
            const on = !custom && "range" in chosen && chosen.range === r;
            return (
              <Button
                key={r}
                size="sm"
                variant={on ? "primary" : "secondary"}
                aria-pressed={on}
                onClick={() => {
                  setEditing(false);
                  url.update({ usage: r, usage_from: "", usage_to: "" });
                }}
              >
                {r}
              </Button>
            );
          })}
          <Button
            size="sm"
            variant={custom ? "primary" : "secondary"}
            aria-pressed={custom}
            aria-expanded={editing}
            onClick={() => setEditing(!editing)}
          >
            Custom
          </Button>
        </div>
      </div>
      {editing && (
        <CustomRange
          from={url.filters.usage_from}
          to={url.filters.usage_to}
          onApply={(from, to) => {
            setEditing(false);
            url.update({ usage: "custom", usage_from: from, usage_to: to });
          }}
        />
      )}
      {q.error && <ErrorState error={q.error} title="Usage could not be loaded" className="mb-4" />}
      {!q.data ? (
        <div role="status" aria-label="Loading usage" className="grid gap-4 lg:grid-cols-2">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-64 w-full" />
          ))}
        </div>
      ) : (
        <>
          {t && (
            <p className="mb-3 text-sm text-zinc-600">
              {t.triggers} triggers · {t.error_rate === null ? "no replies" : `${pct(t.error_rate)} of replies failed`}
              {" · "}
              {t.prompt_tokens + t.completion_tokens} tokens · {usd(t.cost)} · {t.runs_started} runs started
              {t.evaluation_cases > 0 &&
                ` · and apart from these, evaluations: ${t.evaluation_cases} cases, ${usd(t.evaluation_cost)}`}
            </p>
          )}
          <div className="grid gap-4 lg:grid-cols-2">
            {CHARTS.map((c) => (
              <ChartCard
                key={c.title}
                title={c.title}
                kind={c.kind}
                shown={shown}
                points={points}
                empty={!t || c.empty(t)}
                emptyText={c.emptyText}
                series={c.series}
              />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
