// The only way the console's pages talk to /api/console: one query hook per resource and one typed
// request per write, each typed by the zod schema of the answer (lib/*/schemas.ts). A change of a
// schema then fails the type check of every page that reads the field it changed.
import {
  keepPreviousData,
  useInfiniteQuery,
  useQuery,
  type QueryKey,
  type UseQueryOptions,
} from "@tanstack/react-query";
import type { z } from "zod";
import type {
  AgentList as AgentListAnswer,
  AgentRecord,
  CreateAgentBody,
  PublishBody,
  PublishPreview,
  RestoreBody,
  RolloutRecord,
  RolloutReport,
  UpdateAgentBody,
  VersionDiff,
  VersionList,
  VersionRecord,
} from "@/lib/agents/schemas";
import type {
  DeliveryDetail,
  DeliveryList,
  DeliverySummary,
  RotatedSecret,
  SigningSecretInfo,
} from "@/lib/callbacks/schemas";
import type {
  ConsoleChatReply,
  OrgMessagePage,
  OrgSessionPage,
  OrgSessionRecord,
  TokenUsage as TokenUsageSchema,
} from "@/lib/conversations/schemas";
import type { CreateExportBody, ExportList, ExportRecord } from "@/lib/exports/schemas";
import type { AgentFilePage, DeletedFile, FileLink } from "@/lib/files/schemas";
import type { CreateViewBody, DeletedView, UpdateViewBody, ViewList, ViewPage, ViewRecord } from "@/lib/views/schemas";
import type {
  AccessKeyRecord,
  ManagementAccessKeyList,
  MintedAccessKey,
  MintKeyBody,
  PERMISSIONS,
} from "@/lib/keys/schemas";
import type { KeyUsagePreview, UpdateKeyBody } from "@/lib/keys/schemas";
import type {
  AcceptedInvitation,
  AcceptInvitationBody,
  AuditPage,
  CreatedInvitation,
  InvitationPage,
  InviteBody,
  MemberList,
  MemberRecord,
  Overview,
  RemovedMember,
  RevokedInvitation,
  Role,
} from "@/lib/orgs/schemas";
import type {
  CONTROL_VALUES,
  ConsoleApprovalList,
  OrgRunDetail,
  OrgRunPage,
  ResolveResult,
  RunAccepted,
  RunItemPage,
} from "@/lib/runs/schemas";
import type { RetentionSetting } from "@/lib/retention/schemas";
import type {
  BULK_ACTIONS,
  BulkActionPage as BulkActionPageAnswer,
  BulkActionRecord,
  BulkPreview,
  BulkSelection,
} from "@/lib/bulk/schemas";
import type { SearchResult, TimelinePage } from "@/lib/search/schemas";
import type {
  BulkDecideResult as BulkDecideResultAnswer,
  ChangesAnswer as ChangesAnswerSchema,
  ReviewPage as ReviewPageAnswer,
} from "@/lib/reviews/schemas";
import type { DeletedSecret, ManagementSecretList, SecretRecord } from "@/lib/secrets/schemas";
import type {
  AlertEventList,
  AlertEventRecord,
  AlertRuleBody,
  AlertRuleList,
  AlertRulePatch,
  AlertRuleRecord,
  AlertTestSent,
  DeletedAlertRule,
} from "@/lib/alerts/schemas";
import type { UsageReport } from "@/lib/usage/schemas";
import { api, del, everyPage, org, patch, post } from "./api";

// The answers as the pages see them.
export type Agent = z.infer<typeof AgentRecord>;
export type AgentList = z.infer<typeof AgentListAnswer>;
export type RunListItem = z.infer<typeof OrgRunPage>["runs"][number];
export type RunDetail = z.infer<typeof OrgRunDetail>;
export type RunItem = z.infer<typeof RunItemPage>["items"][number];
export type Approval = z.infer<typeof ConsoleApprovalList>["approvals"][number];
export type Control = (typeof CONTROL_VALUES)[number];
export type ResolveAnswer = z.infer<typeof ResolveResult>;
export type SessionItem = z.infer<typeof OrgSessionPage>["sessions"][number];
export type SessionDetail = z.infer<typeof OrgSessionRecord>;
export type MessagePage = z.infer<typeof OrgMessagePage>;
export type MessageItem = MessagePage["messages"][number];
export type ChatReply = z.infer<typeof ConsoleChatReply>;
export type TokenUsage = z.infer<typeof TokenUsageSchema>;
export type AccessKey = z.infer<typeof AccessKeyRecord>;
export type Permission = (typeof PERMISSIONS)[number];
export type Member = z.infer<typeof MemberRecord>;
export type Invitation = z.infer<typeof InvitationPage>["invitations"][number];
export type NewInvitation = z.infer<typeof CreatedInvitation>;
export type AuditEvent = z.infer<typeof AuditPage>["events"][number];
export type FileItem = z.infer<typeof AgentFilePage>["files"][number];
export type Secret = z.infer<typeof SecretRecord>;
export type OverviewData = z.infer<typeof Overview>;
export type Delivery = z.infer<typeof DeliverySummary>;
export type DeliveryPage = z.infer<typeof DeliveryList>;
export type DeliveryRecord = z.infer<typeof DeliveryDetail>;
export type SigningSecret = z.infer<typeof SigningSecretInfo>;
export type RoleName = z.infer<typeof Role>;

/** Options a page may add to a query (polling, placeholders, enabling); the key and the fetch are fixed here. */
type Extra<T> = Omit<UseQueryOptions<T, Error, T, QueryKey>, "queryKey" | "queryFn">;

const id = encodeURIComponent;
const search = (params: Record<string, string | number | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v));
  return q.toString();
};

/** The query keys: writes invalidate by the same keys the reads cache under. */
export const queryKeys = {
  agents: () => ["agents"] as const,
  /** The agent and, under it, its versions, diffs and rollout: a write to the agent invalidates them all. */
  agent: (agentId: string) => ["agent", agentId] as const,
  agentVersions: (agentId: string) => ["agent", agentId, "versions"] as const,
  agentFiles: (agentId: string) => ["agent-files", agentId] as const,
  runs: () => ["runs"] as const,
  run: (runId: string) => ["run", runId] as const,
  sessions: () => ["sessions"] as const,
  session: (sessionId: string) => ["session", sessionId] as const,
  sessionMessages: (sessionId: string) => ["session-messages", sessionId] as const,
  keys: () => ["keys"] as const,
  key: (keyId: string) => ["keys", keyId] as const,
  members: () => ["members"] as const,
  invitations: () => ["invitations"] as const,
  audit: () => ["audit"] as const,
  secrets: () => ["secrets"] as const,
  overview: () => ["overview"] as const,
  deliveries: () => ["deliveries"] as const,
  delivery: (deliveryId: string) => ["delivery", deliveryId] as const,
  signingSecret: () => ["webhooks", "secret"] as const,
  usage: () => ["usage"] as const,
  alertRules: () => ["alert-rules"] as const,
  alertEvents: () => ["alert-events"] as const,
};

/** A list's further URL filters (`from`, `to`, `user_id`, `has_error`, ...), passed on as they are. */
export type ListFilters = Record<string, string>;

// Reads.

/** Every agent of the organization (the filters' choices), archived ones included. */
/** Every agent of the organization (the agent pickers). */
export const useAgents = (extra: Extra<AgentList> = {}) =>
  useQuery({
    queryKey: queryKeys.agents(),
    queryFn: () => everyPage<AgentList>(org("/agents?include_archived=true"), "agents"),
    ...extra,
  });

/** A page of the agents list, `limit` after `cursor` (docs/console.md, "How the lists page"). */
export const useAgentsPage = (p: { limit: number; cursor: string }, extra: Extra<AgentList> = {}) =>
  useQuery({
    queryKey: [...queryKeys.agents(), { cursor: p.cursor, limit: p.limit }],
    queryFn: () =>
      api<AgentList>(org(`/agents?${search({ include_archived: "true", limit: p.limit, cursor: p.cursor })}`)),
    placeholderData: keepPreviousData,
    ...extra,
  });

export const useAgent = (agentId: string) =>
  useQuery({ queryKey: queryKeys.agent(agentId), queryFn: () => api<Agent>(org(`/agents/${id(agentId)}`)) });

// The lists page by the server's cursor (`cursor`: a page's `next_cursor`; "" for the first page),
// never by offset (docs/console.md, "How the lists page").

export const useAgentFiles = (p: { agentId: string; limit: number; cursor: string; filters?: ListFilters }) =>
  useQuery({
    queryKey: [...queryKeys.agentFiles(p.agentId), p.cursor, p.limit, p.filters ?? {}],
    queryFn: () =>
      api<z.infer<typeof AgentFilePage>>(
        org(`/agents/${id(p.agentId)}/files?${search({ ...p.filters, limit: p.limit, cursor: p.cursor })}`),
      ),
    placeholderData: keepPreviousData,
  });

export const useRuns = (
  p: { status: string; agentId: string; limit: number; cursor: string; filters?: ListFilters },
  extra: Extra<z.infer<typeof OrgRunPage>> = {},
) =>
  useQuery({
    queryKey: [
      ...queryKeys.runs(),
      { status: p.status, agentId: p.agentId, cursor: p.cursor, limit: p.limit, ...p.filters },
    ],
    queryFn: () =>
      api<z.infer<typeof OrgRunPage>>(
        org(
          `/runs?${search({ ...p.filters, limit: p.limit, cursor: p.cursor, status: p.status, agent_id: p.agentId })}`,
        ),
      ),
    placeholderData: keepPreviousData,
    ...extra,
  });

export const useRun = (runId: string, extra: Extra<RunDetail> = {}) =>
  useQuery({ queryKey: queryKeys.run(runId), queryFn: () => api<RunDetail>(org(`/runs/${id(runId)}`)), ...extra });

/** A run's items; `version` changes with the run's status and counts, and only then are they fetched again. */
export const useRunItems = (p: { runId: string; status: string; limit: number; cursor: string; version: string }) =>
  useQuery({
    queryKey: [...queryKeys.run(p.runId), "items", { status: p.status, cursor: p.cursor }, p.version],
    queryFn: () =>
      api<z.infer<typeof RunItemPage>>(
        org(`/runs/${id(p.runId)}/items?${search({ limit: p.limit, cursor: p.cursor, status: p.status })}`),
      ),
    placeholderData: keepPreviousData,
  });

export const useApprovals = (p: { runId: string; version: string; enabled: boolean }) =>
  useQuery({
    queryKey: [...queryKeys.run(p.runId), "approvals", p.version],
    queryFn: () => api<z.infer<typeof ConsoleApprovalList>>(org(`/runs/${id(p.runId)}/approvals`)),
    enabled: p.enabled,
    placeholderData: (prev) => prev,
  });

export const useSessions = (p: {
  environment: string;
  agent_id: string;
  status: string;
  since: string;
  limit: number;
  cursor: string;
  filters?: ListFilters;
}) => {
  const query = search({
    ...p.filters,
    environment: p.environment,
    limit: p.limit,
    cursor: p.cursor,
    agent_id: p.agent_id,
    status: p.status,
    since: p.since,
  });
  return useQuery({
    queryKey: [...queryKeys.sessions(), query],
    queryFn: () => api<z.infer<typeof OrgSessionPage>>(org(`/sessions?${query}`)),
    placeholderData: keepPreviousData,
  });
};

export const useSession = (sessionId: string, extra: Extra<SessionDetail> = {}) =>
  useQuery({
    queryKey: queryKeys.session(sessionId),
    queryFn: () => api<SessionDetail>(org(`/sessions/${id(sessionId)}`)),
    ...extra,
  });

/** A session's messages, oldest first, a page at a time; live while a reply is being produced. */
export const useSessionMessages = (p: { sessionId: string; pageSize: number; liveMs: number }) =>
  useInfiniteQuery({
    queryKey: queryKeys.sessionMessages(p.sessionId),
    queryFn: ({ pageParam }) =>
      api<MessagePage>(
        org(`/sessions/${id(p.sessionId)}/messages?${search({ limit: p.pageSize, cursor: pageParam })}`),
      ),
    initialPageParam: "",
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
    // A settled thread is not polled; liveMs 0: the page keeps it fresh otherwise (components/console/live.tsx).
    refetchInterval: (q) =>
      p.liveMs && q.state.data?.pages.some((pg) => pg.messages.some((m) => m.status === "processing"))
        ? p.liveMs
        : false,
  });

export const useKeys = () =>
  useQuery({
    queryKey: queryKeys.keys(),
    queryFn: () => everyPage<z.infer<typeof ManagementAccessKeyList>>(org("/access-keys"), "access_keys"),
  });

export const useKey = (keyId: string) =>
  useQuery({ queryKey: queryKeys.key(keyId), queryFn: () => api<AccessKey>(org(`/access-keys/${id(keyId)}`)) });

export type KeyUsage = z.infer<typeof KeyUsagePreview>;
/** What a key is used for (the revoke dialog and the key's page); `enabled` false until asked. */
export const useKeyUsage = (keyId: string | undefined) =>
  useQuery({
    queryKey: [...queryKeys.key(keyId ?? ""), "usage"],
    queryFn: () => api<KeyUsage>(org(`/access-keys/${id(keyId!)}/usage-preview`)),
    enabled: !!keyId,
  });

export const useMembers = () =>
  useQuery({
    queryKey: queryKeys.members(),
    queryFn: () => everyPage<z.infer<typeof MemberList>>(org("/members"), "members"),
  });

export const useInvitations = () =>
  useQuery({
    queryKey: queryKeys.invitations(),
    queryFn: () => everyPage<z.infer<typeof InvitationPage>>(org("/invitations"), "invitations", 100),
  });

export const useAudit = (p: { action: string; limit: number; cursor: string; filters?: ListFilters }) => {
  const query = search({ ...p.filters, limit: p.limit, cursor: p.cursor, action: p.action });
  return useQuery({
    queryKey: [...queryKeys.audit(), query],
    queryFn: () => api<z.infer<typeof AuditPage>>(org(`/audit?${query}`)),
    placeholderData: keepPreviousData,
  });
};

export const useSecrets = (extra: Extra<z.infer<typeof ManagementSecretList>> = {}) =>
  useQuery({
    queryKey: queryKeys.secrets(),
    queryFn: () => everyPage<z.infer<typeof ManagementSecretList>>(org("/secrets"), "secrets"),
    ...extra,
  });

export const useOverview = () =>
  useQuery({
    queryKey: queryKeys.overview(),
    queryFn: () => api<OverviewData>(org("/overview")),
    refetchInterval: 10_000,
  });

export const useDeliveries = (
  p: { status: string; agentId: string; cursor: string; limit: number; filters?: ListFilters },
  extra: Extra<DeliveryPage> = {},
) =>
  useQuery({
    queryKey: [...queryKeys.deliveries(), { status: p.status, agentId: p.agentId, cursor: p.cursor, ...p.filters }],
    queryFn: () =>
      api<DeliveryPage>(
        org(
          `/deliveries?${search({ ...p.filters, limit: p.limit, status: p.status, agent_id: p.agentId, cursor: p.cursor })}`,
        ),
      ),
    placeholderData: keepPreviousData,
    ...extra,
  });

export const useDelivery = (deliveryId: string, extra: Extra<DeliveryRecord> = {}) =>
  useQuery({
    queryKey: queryKeys.delivery(deliveryId),
    queryFn: () => api<DeliveryRecord>(org(`/deliveries/${id(deliveryId)}`)),
    ...extra,
  });

export type AlertRule = z.infer<typeof AlertRuleRecord>;
export type AlertEvent = z.infer<typeof AlertEventRecord>;

export const useAlertRules = (extra: Extra<z.infer<typeof AlertRuleList>> = {}) =>
  useQuery({
    queryKey: queryKeys.alertRules(),
    queryFn: () => api<z.infer<typeof AlertRuleList>>(org("/alert-rules?limit=100")),
    ...extra,
  });

export const useAlertEvents = (
  p: { ruleId: string; cursor: string; limit: number },
  extra: Extra<z.infer<typeof AlertEventList>> = {},
) =>
  useQuery({
    queryKey: [...queryKeys.alertEvents(), p],
    queryFn: () =>
      api<z.infer<typeof AlertEventList>>(
        org(`/alert-events?${search({ rule_id: p.ruleId, cursor: p.cursor, limit: p.limit })}`),
      ),
    placeholderData: keepPreviousData,
    ...extra,
  });

export const useSigningSecret = () =>
  useQuery({ queryKey: queryKeys.signingSecret(), queryFn: () => api<SigningSecret>(org("/webhook-secret")) });

// Writes: the pages wrap these in useMutation with their own toasts and invalidations.

export const requests = {
  createAgent: (body: CreateAgentBody | Record<string, unknown>) => post<Agent>(org("/agents"), body),
  updateAgent: (agentId: string, body: UpdateAgentBody | Record<string, unknown>) =>
    patch<Agent>(org(`/agents/${id(agentId)}`), body),
  archiveAgent: (agentId: string) => del<Agent>(org(`/agents/${id(agentId)}`)),
  chat: (agentId: string, body: Record<string, unknown>) => post<ChatReply>(org(`/agents/${id(agentId)}/chat`), body),
  /** `agentVersion`: the version to try (the draft too); null or absent: the one a trigger would get. */
  startRun: (agentId: string, inputs: Record<string, unknown>, agentVersion?: number | null) =>
    post<z.infer<typeof RunAccepted>>(org(`/agents/${id(agentId)}/runs`), {
      inputs,
      ...(agentVersion != null ? { agent_version: agentVersion } : {}),
    }),
  controlRun: (runId: string, action: Control) => post<RunDetail>(org(`/runs/${id(runId)}/${action}`)),
  resolveApproval: (
    runId: string,
    body: {
      exception_id: string;
      resolution: ResolveAnswer["resolution"];
      modified_data?: unknown;
      reason?: string;
      take_over?: boolean;
    },
  ) => post<ResolveAnswer>(org(`/runs/${id(runId)}/approvals/resolve`), body),
  mintKey: (body: z.input<typeof MintKeyBody>) => post<z.infer<typeof MintedAccessKey>>(org("/access-keys"), body),
  revokeKey: (keyId: string) => del<AccessKey>(org(`/access-keys/${id(keyId)}`)),
  rollKey: (keyId: string, graceSeconds: number) =>
    post<z.infer<typeof MintedAccessKey>>(org(`/access-keys/${id(keyId)}/roll`), {
      grace_period_seconds: graceSeconds,
    }),
  updateKey: (keyId: string, body: z.input<typeof UpdateKeyBody>) =>
    patch<AccessKey>(org(`/access-keys/${id(keyId)}`), body),
  invite: (body: InviteBody) => post<NewInvitation>(org("/invitations"), body),
  revokeInvitation: (invitationId: string) =>
    del<z.infer<typeof RevokedInvitation>>(org(`/invitations/${id(invitationId)}`)),
  changeRole: (userId: string, role: RoleName) => patch<Member>(org(`/members/${id(userId)}`), { role }),
  removeMember: (userId: string) => del<z.infer<typeof RemovedMember>>(org(`/members/${id(userId)}`)),
  setSecret: (name: string, value: string) =>
    api<Secret>(org(`/secrets/${id(name)}`), { method: "PUT", json: { value } }),
  deleteSecret: (name: string) => del<z.infer<typeof DeletedSecret>>(org(`/secrets/${id(name)}`)),
  createAlertRule: (body: z.input<typeof AlertRuleBody>) => post<AlertRule>(org("/alert-rules"), body),
  updateAlertRule: (ruleId: string, body: z.input<typeof AlertRulePatch>) =>
    patch<AlertRule>(org(`/alert-rules/${id(ruleId)}`), body),
  deleteAlertRule: (ruleId: string) => del<z.infer<typeof DeletedAlertRule>>(org(`/alert-rules/${id(ruleId)}`)),
  testAlertRule: (ruleId: string) => post<z.infer<typeof AlertTestSent>>(org(`/alert-rules/${id(ruleId)}/test`)),
  rotateSigningSecret: () => post<z.infer<typeof RotatedSecret>>(org("/webhook-secret")),
  redeliver: (deliveryId: string) => post<Delivery>(org(`/deliveries/${id(deliveryId)}/redeliver`)),
  switchOrganization: (organizationId: string) => post("/org", { organization_id: organizationId }),
  signIn: (email: string, password: string) => api("/auth/sign-in", { method: "POST", json: { email, password } }),
  signOut: () => post("/auth/sign-out"),
  acceptInvitation: (body: AcceptInvitationBody) =>
    post<z.infer<typeof AcceptedInvitation>>("/invitations/accept", body),
  createView: (body: z.input<typeof CreateViewBody>) => post<SavedView>(org("/views"), body),
  updateView: (viewId: string, body: z.input<typeof UpdateViewBody>) =>
    patch<SavedView>(org(`/views/${id(viewId)}`), body),
  deleteView: (viewId: string) => del<z.infer<typeof DeletedView>>(org(`/views/${id(viewId)}`)),
  deleteFile: (agentId: string, fileId: string) =>
    del<z.infer<typeof DeletedFile>>(org(`/agents/${id(agentId)}/files/${id(fileId)}`)),
  fileLink: (agentId: string, fileId: string) =>
    api<z.infer<typeof FileLink>>(org(`/agents/${id(agentId)}/files/${id(fileId)}`)),
};

// Saved views (docs/console.md, "Saved views"): the member's and the shared views of one list.

export type SavedView = z.infer<typeof ViewRecord>;
export const viewsKey = (list: ViewList) => ["views", list] as const;

export const useViews = (list: ViewList) =>
  useQuery({
    queryKey: viewsKey(list),
    queryFn: () => api<z.infer<typeof ViewPage>>(org(`/views?${search({ list, limit: 200 })}`)),
  });

// Retention (app/(console)/settings/retention): the setting, the preview of what a new one deletes.

export type Retention = z.infer<typeof RetentionSetting>;
export type RetentionPreview = NonNullable<Retention["preview"]>;

export const retentionKey = () => ["retention"] as const;

export const useRetention = () =>
  useQuery({ queryKey: retentionKey(), queryFn: () => api<Retention>(org("/retention")) });

/** What a retention of `days` would have the next sweep delete; not asked for forever (0) or no choice (null). */
export const useRetentionPreview = (days: number | null) =>
  useQuery({
    queryKey: [...retentionKey(), "preview", days],
    queryFn: async () =>
      (await api<Retention>(org(`/retention?${search({ preview_days: days ?? undefined })}`))).preview!,
    enabled: days !== null && days > 0,
  });

export const setRetention = (retentionDays: number | null) =>
  patch<Retention>(org("/retention"), { retention_days: retentionDays });

// Bulk actions (app/(console)/runs/bulk-*.tsx): the dry run, starting one, its progress; and
// "Run again" (app/(console)/runs/[run_id]/rerun.tsx).

export type BulkActionName = (typeof BULK_ACTIONS)[number];
export type BulkSelectionBody = z.input<typeof BulkSelection>;
export type BulkPreviewAnswer = z.infer<typeof BulkPreview>;
export type BulkAction = z.infer<typeof BulkActionRecord>;

export const bulkActionKey = (bulkActionId: string) => ["bulk-actions", bulkActionId] as const;

export type BulkActionPage = z.infer<typeof BulkActionPageAnswer>;

/** The organization's bulk actions, newest first; polled every 2 s while one of the page runs. */
export const useBulkActions = (p: { limit: number; cursor: string }) =>
  useQuery({
    queryKey: ["bulk-actions", "list", { cursor: p.cursor, limit: p.limit }],
    queryFn: () => api<BulkActionPage>(org(`/bulk-actions?${search({ limit: p.limit, cursor: p.cursor })}`)),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data?.bulk_actions.some((b) => b.status === "pending" || b.status === "running") ? 2_000 : false,
  });

/** One bulk action; `poll` keeps it fresh while it runs. */
export const useBulkAction = (bulkActionId: string, extra: Extra<BulkAction> = {}) =>
  useQuery({
    queryKey: bulkActionKey(bulkActionId),
    queryFn: () => api<BulkAction>(org(`/bulk-actions/${id(bulkActionId)}`)),
    enabled: Boolean(bulkActionId),
    ...extra,
  });

export const bulkRequests = {
  preview: (body: { action: BulkActionName; selection: BulkSelectionBody }) =>
    post<BulkPreviewAnswer>(org("/bulk-actions/preview"), body),
  start: (body: { action: BulkActionName; selection: BulkSelectionBody; expected_count?: number }) =>
    post<BulkAction>(org("/bulk-actions"), body),
  rerun: (runId: string, inputs: Record<string, unknown>) =>
    post<z.infer<typeof RunAccepted>>(org(`/runs/${id(runId)}/rerun`), { inputs }),
};
/** The header search's results (docs/console.md, Search): kept a minute, the text is the key. */
export const useSearch = (q: string) =>
  useQuery({
    queryKey: ["search", q],
    queryFn: () => api<SearchResult>(org(`/search?${search({ q })}`)),
    enabled: q.trim().length > 0,
    retry: false,
    staleTime: 60_000,
  });

/** An end user's case timeline, newest first, a keyset page at a time ("Show older"). */
export const useUserTimeline = (userId: string, pageSize = 50) =>
  useInfiniteQuery({
    queryKey: ["user-timeline", userId],
    queryFn: ({ pageParam }) =>
      api<TimelinePage>(org(`/users/${id(userId)}/timeline?${search({ limit: pageSize, cursor: pageParam })}`)),
    initialPageParam: "",
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
  });
// The review inbox (app/(console)/reviews) and live updates (components/console/live.tsx).

export type ReviewItem = z.infer<typeof ReviewPageAnswer>["items"][number];
export type ReviewList = z.infer<typeof ReviewPageAnswer>;
export type BulkDecision = z.infer<typeof BulkDecideResultAnswer>;
export type Changes = z.infer<typeof ChangesAnswerSchema>;

export const reviewsKey = () => ["reviews"] as const;

export const useReviews = (p: {
  agentId: string;
  from: string;
  to: string;
  claimed: string;
  limit: number;
  cursor: string;
}) => {
  const query = search({
    agent_id: p.agentId,
    from: p.from,
    to: p.to,
    claimed: p.claimed,
    limit: p.limit,
    cursor: p.cursor,
  });
  return useQuery({
    queryKey: [...reviewsKey(), query],
    queryFn: () => api<ReviewList>(org(`/reviews?${query}`)),
    placeholderData: keepPreviousData,
  });
};

export const reviewRequests = {
  claim: (exceptionId: string, takeOver = false) =>
    post<ReviewItem>(org(`/reviews/${id(exceptionId)}/claim`), { take_over: takeOver }),
  resolve: (
    exceptionId: string,
    body: {
      resolution: ResolveAnswer["resolution"];
      modified_data?: unknown;
      reason?: string;
      take_over?: boolean;
    },
  ) => post<ResolveAnswer>(org(`/reviews/${id(exceptionId)}/resolve`), body),
  bulk: (body: { exception_ids: string[]; resolution: "approved" | "rejected"; reason?: string; take_over: boolean }) =>
    post<BulkDecision>(org("/reviews/bulk"), body),
};

/** One long poll of the changes feed: answers when a topic changed after `since` (or after its hold). */
export const pollChanges = (topics: readonly string[], since: string | null, signal: AbortSignal, sessionId?: string) =>
  api<Changes>(`/changes?${search({ topics: topics.join(","), since: since ?? undefined, session_id: sessionId })}`, {
    signal,
  });
// Exports (app/(console)/exports): the list, live while one is queued or running, and a new one.

export type ExportItem = z.infer<typeof ExportRecord>;
export type ExportPage = z.infer<typeof ExportList>;

export const exportsKey = () => ["exports"] as const;

/** The organization's exports; polled every 2 s while one of them is still being written. */
export const useExports = (p: { limit: number; cursor: string }) =>
  useQuery({
    queryKey: [...exportsKey(), { cursor: p.cursor, limit: p.limit }],
    queryFn: () => api<ExportPage>(org(`/exports?${search({ limit: p.limit, cursor: p.cursor })}`)),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data?.exports.some((e) => e.status === "queued" || e.status === "running") ? 2_000 : false,
  });

export const createExport = (body: CreateExportBody) => post<ExportItem>(org("/exports"), body);
/** The export again: its `download_url` is a fresh signed link valid 15 minutes. */
export const readExport = (exportId: string) => api<ExportItem>(org(`/exports/${id(exportId)}`));
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

/** The usage rollups of the organization, of one agent or of one key, over a window. */
export const useUsage = (p: { window: UsageWindow; agentId?: string; keyId?: string }) =>
  useQuery({
    queryKey: [...queryKeys.usage(), p],
    queryFn: () => {
      let from: Date, to: Date, groupBy: "hour" | "day";
      if ("range" in p.window) {
        const preset = USAGE_RANGES[p.window.range];
        to = new Date();
        from = new Date(to.getTime() - preset.hours * 3_600_000);
        groupBy = preset.groupBy;
      } else ({ from, to, groupBy } = customWindow(p.window));
      const query = search({
        from: from.toISOString(),
        to: to.toISOString(),
        group_by: groupBy,
        agent_id: p.agentId,
        key_id: p.keyId,
      });
      return api<z.infer<typeof UsageReport>>(org(`/usage?${query}`));
    },
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });

// Agent versions (app/(console)/agents/[agent_id]: the Versions tab, the draft banner, the rollout
// card): the list, one version, a diff, the rollout's figures and the writes. Every key sits under
// the agent's, so a write that invalidates the agent refreshes them too.

export type VersionItem = z.infer<typeof VersionList>["versions"][number];
export type VersionPage = z.infer<typeof VersionList>;
export type VersionDetail = z.infer<typeof VersionRecord>;
export type VersionDiffAnswer = z.infer<typeof VersionDiff>;
export type VersionChange = VersionDiffAnswer["changes"][number];
export type PublishPreviewAnswer = z.infer<typeof PublishPreview>;
export type Rollout = z.infer<typeof RolloutRecord>;
export type RolloutFigures = z.infer<typeof RolloutReport>;
export type PublishInput = z.input<typeof PublishBody>;

const versionsPath = (agentId: string) => org(`/agents/${id(agentId)}/versions`);

/** A page of the agent's versions, newest first. */
export const useAgentVersions = (p: { agentId: string; limit: number; cursor: string }) =>
  useQuery({
    queryKey: [...queryKeys.agentVersions(p.agentId), "list", { cursor: p.cursor, limit: p.limit }],
    queryFn: () => api<VersionPage>(`${versionsPath(p.agentId)}?${search({ limit: p.limit, cursor: p.cursor })}`),
    placeholderData: keepPreviousData,
  });

/** One version with its configuration; null: none asked for. */
export const useAgentVersion = (agentId: string, version: number | null) =>
  useQuery({
    queryKey: [...queryKeys.agentVersions(agentId), version],
    queryFn: () => api<VersionDetail>(`${versionsPath(agentId)}/${version}`),
    enabled: version !== null,
  });

/** What changes from version `from` to version `to`; null: not both chosen. */
export const useVersionDiff = (agentId: string, from: number | null, to: number | null) =>
  useQuery({
    queryKey: [...queryKeys.agentVersions(agentId), "diff", from, to],
    queryFn: () => api<VersionDiffAnswer>(`${versionsPath(agentId)}/${from}/diff?${search({ to: to ?? undefined })}`),
    enabled: from !== null && to !== null,
  });

/** The dry run of a publish: what it changes for live traffic; `body` null: not asked. */
export const usePublishPreview = (agentId: string, body: PublishInput | null) =>
  useQuery({
    queryKey: [...queryKeys.agent(agentId), "publish-preview", body],
    queryFn: () => post<PublishPreviewAnswer>(org(`/agents/${id(agentId)}/publish`), { ...body, dry_run: true }),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });

/** The rollout and both versions' figures; polled every 5 s while a rollout is on. */
export const useRolloutFigures = (agentId: string, enabled: boolean) =>
  useQuery({
    queryKey: [...queryKeys.agent(agentId), "rollout"],
    queryFn: () => api<RolloutFigures>(org(`/agents/${id(agentId)}/rollout`)),
    enabled,
    refetchInterval: (q) => (q.state.data?.rollout ? 5_000 : false),
  });

export const versionRequests = {
  publish: (agentId: string, body: PublishInput) => post<Agent>(org(`/agents/${id(agentId)}/publish`), body),
  changeRollout: (agentId: string, percent: number) => post<Agent>(org(`/agents/${id(agentId)}/rollout`), { percent }),
  rollback: (agentId: string, note?: string) =>
    post<Agent>(org(`/agents/${id(agentId)}/rollback`), note ? { note } : {}),
  restore: (agentId: string, version: number, body: z.input<typeof RestoreBody>) =>
    post<Agent>(`${versionsPath(agentId)}/${version}/restore`, body),
  discardDraft: (agentId: string) => del<Agent>(org(`/agents/${id(agentId)}/draft`)),
};
