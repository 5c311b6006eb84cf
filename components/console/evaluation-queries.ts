// The console's reads and writes of evaluations (docs/api.md, Evaluations; docs/console.md,
// Evaluations), typed by the answers' schemas (lib/evaluations/schemas.ts). Beside queries.ts: one
// hook per resource, one typed function per write; pages wrap the writes in useMutation.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type {
  CreateEvaluationBody,
  EvaluationCaseList,
  EvaluationCaseRecord,
  EvaluationDryRun,
  EvaluationList,
  EvaluationRecord,
  VerdictBody,
} from "@/lib/evaluations/schemas";
import { FINISHED_STATUSES } from "@/lib/evaluations/schemas";
import { api, everyPage, org, post } from "./api";

export type Evaluation = EvaluationRecord;
export type EvaluationCase = EvaluationCaseRecord;
export type EvaluationCasePage = z.infer<typeof EvaluationCaseList>;
export type EvaluationPage = z.infer<typeof EvaluationList>;
export type DryRun = z.infer<typeof EvaluationDryRun>;
/** What the dialog sends: the body as the API reads it (defaults may be left out). */
export type EvaluationInput = z.input<typeof CreateEvaluationBody>;
export type VerdictInput = z.input<typeof VerdictBody>;

const id = encodeURIComponent;
const base = (agentId: string) => org(`/agents/${id(agentId)}/evaluations`);
const query = (params: Record<string, string | number | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v));
  return q.toString();
};

/** Still moving: polled every second. */
export const isLive = (e: Pick<Evaluation, "status"> | undefined) =>
  e !== undefined && !FINISHED_STATUSES.includes(e.status);

export const evaluationKeys = {
  agent: (agentId: string) => ["evaluations", agentId] as const,
  one: (agentId: string, evaluationId: string) => ["evaluations", agentId, evaluationId] as const,
  cases: (agentId: string, evaluationId: string) => ["evaluations", agentId, evaluationId, "cases"] as const,
};

/** A page of the agent's evaluations, newest first. */
export const useEvaluations = (p: { agentId: string; limit: number; cursor: string }) =>
  useQuery({
    queryKey: [...evaluationKeys.agent(p.agentId), "list", p.cursor, p.limit],
    queryFn: () => api<EvaluationPage>(`${base(p.agentId)}?${query({ limit: p.limit, cursor: p.cursor })}`),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.evaluations.some(isLive) ? 2_000 : false),
  });

/** One evaluation, polled every second while queued or running. */
export const useEvaluation = (agentId: string, evaluationId: string | null) =>
  useQuery({
    queryKey: evaluationKeys.one(agentId, evaluationId ?? ""),
    queryFn: () => api<Evaluation>(`${base(agentId)}/${id(evaluationId!)}`),
    enabled: evaluationId !== null,
    refetchInterval: (q) => (isLive(q.state.data) ? 1_000 : false),
  });

/** A page of its cases, by outcome and changed or not; `version` refetches them as the evaluation moves. */
export const useEvaluationCases = (p: {
  agentId: string;
  evaluationId: string;
  outcome: string;
  changed: string;
  limit: number;
  cursor: string;
  version: string;
}) =>
  useQuery({
    queryKey: [...evaluationKeys.cases(p.agentId, p.evaluationId), p.outcome, p.changed, p.cursor, p.limit, p.version],
    queryFn: () =>
      api<EvaluationCasePage>(
        `${base(p.agentId)}/${id(p.evaluationId)}/cases?${query({
          outcome: p.outcome,
          changed: p.changed,
          limit: p.limit,
          cursor: p.cursor,
        })}`,
      ),
    placeholderData: keepPreviousData,
  });

/** Every case (at most 500, the most an evaluation has): the latency chart. */
export const useAllEvaluationCases = (agentId: string, evaluationId: string, version: string) =>
  useQuery({
    queryKey: [...evaluationKeys.cases(agentId, evaluationId), "all", version],
    queryFn: () => everyPage<EvaluationCasePage>(`${base(agentId)}/${id(evaluationId)}/cases`, "cases", 200),
    placeholderData: keepPreviousData,
  });

export const evaluationRequests = {
  dryRun: (agentId: string, body: EvaluationInput) => post<DryRun>(base(agentId), { ...body, dry_run: true }),
  create: (agentId: string, body: EvaluationInput) => post<Evaluation>(base(agentId), { ...body, dry_run: false }),
  cancel: (agentId: string, evaluationId: string) => post<Evaluation>(`${base(agentId)}/${id(evaluationId)}/cancel`),
  verdict: (agentId: string, evaluationId: string, caseId: string, body: VerdictInput) =>
    api<EvaluationCase>(`${base(agentId)}/${id(evaluationId)}/cases/${id(caseId)}/verdict`, {
      method: "PUT",
      json: body,
    }),
  /** Publishes the evaluated draft, naming the evaluation (its note and audit event). */
  publish: (agentId: string, version: number, evaluationId: string) =>
    post(org(`/agents/${id(agentId)}/publish`), { version, evaluation_id: evaluationId }),
};
