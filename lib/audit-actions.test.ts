// The audit trail's list of actions (lib/audit-actions.ts): each has a label and a group, and
// `audit()` accepts only the actions of the list.
import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS, AUDIT_GROUPS, auditActionLabel, isAuditAction, type AuditAction } from "./audit-actions";
import type { audit } from "./audit";
import { RUN_MOVES } from "./runs/state";

// A service cannot write an action the list lacks: this assignment fails the type check (npm run check).
// @ts-expect-error not an action of the list
const unlisted: Parameters<typeof audit>[0]["action"] = "agent.deleted";

describe("audit actions", () => {
  it("gives every action of the list a label and a group, the part of the action before its dot", () => {
    expect(AUDIT_ACTIONS.length).toBeGreaterThan(30);
    for (const a of AUDIT_ACTIONS) {
      expect(a.label.trim(), a.action).not.toBe("");
      expect(AUDIT_GROUPS[a.group].label.trim(), a.action).not.toBe("");
      expect(a.action.split(".", 1)[0], a.action).toBe(a.group);
      expect(auditActionLabel(a.action)).toBe(a.label);
    }
    expect(new Set(AUDIT_ACTIONS.map((a) => a.action)).size).toBe(AUDIT_ACTIONS.length);
    expect(new Set(AUDIT_ACTIONS.map((a) => a.label)).size).toBe(AUDIT_ACTIONS.length);
  });

  it("holds every move of a run, and the actions the services write", () => {
    const listed = AUDIT_ACTIONS.map((a) => a.action);
    const moves: AuditAction[] = Object.keys(RUN_MOVES).map((m) => `run.${m as keyof typeof RUN_MOVES}` as const);
    expect(listed).toEqual(expect.arrayContaining(moves));
    expect(listed).toEqual(
      expect.arrayContaining([
        "agent.archived",
        "callback_delivery.redelivered",
        "retention.updated",
        "retention.swept",
        "secret.created",
        "secret.rotated",
        "secret.deleted",
        "secret.referenced",
        "webhook_secret.created",
        "webhook_secret.rotated",
      ]),
    );
    expect(isAuditAction("run.pause")).toBe(true);
    expect(isAuditAction(unlisted)).toBe(false);
  });

  it("spells out an action the list lacks (an older record) from its name", () => {
    expect(auditActionLabel("key.created")).toBe("Key created");
  });
});
