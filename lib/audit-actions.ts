// Every action the services write into the audit trail, with its label, by group (the part of the
// action before its first dot: what the log's `group.*` filter reads, lib/audit.ts). lib/audit.ts
// types `audit()`'s `action` by this list, so a service cannot write an action it lacks; the
// console's audit page builds its action filter from it (docs/console.md). Browser-safe: no imports.

/** The groups, each with its actions' labels; `any` labels the group's `group.*` filter. */
export const AUDIT_GROUPS = {
  access_key: {
    label: "Access Keys",
    actions: {
      created: "Access Key minted",
      revoked: "Access Key revoked",
      rolled: "Access Key rolled",
      updated: "Access Key changed",
    },
  },
  evaluation: {
    label: "Evaluations",
    any: "Any evaluation change",
    actions: {
      created: "Evaluation started",
      cancelled: "Evaluation cancelled",
      verdict: "Evaluation case judged",
    },
  },
  agent: {
    label: "Agents",
    any: "Any agent change",
    actions: {
      created: "Agent created",
      updated: "Agent updated",
      archived: "Agent archived",
      published: "Agent version published",
      rollout_changed: "Agent rollout changed",
      rolled_back: "Agent rolled back",
      restored: "Agent version restored into the draft",
      draft_discarded: "Agent draft discarded",
    },
  },
  run: {
    label: "Runs",
    any: "Any run event",
    // `run.${move}` of lib/runs/state.ts's RUN_MOVES, then the trigger and the approvals.
    actions: {
      trigger: "Run triggered",
      start: "Run started",
      finish: "Run finished",
      fail: "Run failed",
      pause: "Run paused",
      resume: "Run resumed",
      cancel: "Run cancelled",
      retry: "Run retried",
      approval_resolved: "Approval resolved",
      rerun: "Run started again",
      review_taken_over: "Review taken over",
    },
  },
  callback_delivery: {
    label: "Callbacks",
    actions: { redelivered: "Callback redelivered" },
  },
  alert_rule: {
    label: "Alert rules",
    any: "Any alert rule change",
    actions: { created: "Alert rule created", updated: "Alert rule changed", deleted: "Alert rule deleted" },
  },
  webhook_secret: {
    label: "Webhook signing secret",
    actions: { created: "Webhook secret created", rotated: "Webhook secret rotated" },
  },
  secret: {
    label: "Organization secrets",
    any: "Any secret event",
    actions: {
      created: "Secret added",
      rotated: "Secret value replaced",
      deleted: "Secret deleted",
      referenced: "Secret used by an agent",
    },
  },
  member: {
    label: "Members",
    any: "Any member change",
    actions: { added: "Member added", role_changed: "Member role changed", removed: "Member removed" },
  },
  invitation: {
    label: "Invitations",
    any: "Any invitation event",
    actions: { created: "Invitation created", accepted: "Invitation accepted", revoked: "Invitation revoked" },
  },
  auth: {
    label: "Sign-in",
    actions: { sign_in: "Signed in", sign_in_failed: "Sign-in failed", sign_in_locked: "Sign-in locked out" },
  },
  retention: {
    label: "Retention",
    actions: { updated: "Retention settings changed", swept: "Old records deleted" },
  },
  bulk_action: {
    label: "Bulk actions",
    any: "Any bulk action event",
    actions: { started: "Bulk action started", completed: "Bulk action completed" },
  },
  export: {
    label: "Exports",
    any: "Any export event",
    actions: { requested: "Export requested", downloaded: "Export downloaded" },
  },
  file: {
    label: "Uploaded files",
    actions: { deleted: "Uploaded file deleted" },
  },
  saved_view: {
    label: "Shared views",
    any: "Any shared view change",
    actions: { created: "Shared view saved", updated: "Shared view changed", deleted: "Shared view deleted" },
  },
} as const satisfies Record<string, { label: string; any?: string; actions: Record<string, string> }>;

export type AuditGroup = keyof typeof AUDIT_GROUPS;

/** Every action the audit trail holds: `group.name`. */
export type AuditAction = {
  [G in AuditGroup]: `${G}.${keyof (typeof AUDIT_GROUPS)[G]["actions"] & string}`;
}[AuditGroup];

export interface AuditActionEntry {
  action: AuditAction;
  label: string;
  group: AuditGroup;
}

/** The list, in the groups' order. */
export const AUDIT_ACTIONS: AuditActionEntry[] = (Object.keys(AUDIT_GROUPS) as AuditGroup[]).flatMap((group) =>
  Object.entries(AUDIT_GROUPS[group].actions).map(([name, label]: [string, string]) => ({
    action: `${group}.${name}` as AuditAction,
    label,
    group,
  })),
);

const LABELS = new Map<string, string>(AUDIT_ACTIONS.map((a) => [a.action, a.label]));

/** Whether `value` is an action of the list. */
export const isAuditAction = (value: string): value is AuditAction => LABELS.has(value);

/** An action's label; an action the list lacks (an older record) is spelled out from its name. */
export const auditActionLabel = (action: string): string =>
  LABELS.get(action) ?? action.replace(/[._]/g, " ").replace(/^\w/, (c) => c.toUpperCase());
