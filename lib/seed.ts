// First start: on an empty database, create a first admin, a default organization and project, a
// user token and two demo agents, and print how to try the API.
import { randomBase62 } from "./ids";
import { env } from "./env";
import { prisma } from "./db";
import { bootstrap } from "./orgs/service";
import { createAgent } from "./agents/service";
import { CreateAgentBody } from "./agents/schemas";

export const DEMO_AGENTS: unknown[] = [
  {
    name: "Demo echo agent",
    kind: "conversational",
    runtime: { type: "echo", delay_ms: 0 },
  },
  {
    name: "Demo order totals",
    kind: "workflow",
    runtime: { type: "echo" },
    workflow: {
      inputs: { orders: { type: "array", required: true }, threshold: { type: "number" } },
      items: { from: "orders" },
      steps: [
        {
          id: "total",
          type: "transform",
          expression: "$merge([item, {'total': $number(item.qty) * $number(item.price)}])",
        },
        { id: "reject", type: "fail", when: "item.total < 0", message: "negative total" },
        {
          id: "big",
          type: "review",
          when: "inputs.threshold and item.total > inputs.threshold",
          message: "large order",
        },
      ],
      output: { filename: "results.csv", format: "csv" },
    },
  },
];

export async function seedFirstStart(): Promise<boolean> {
  const db = await prisma();
  if ((await db.organization.count()) > 0) return false;
  const e = env();
  const password = e.ADMIN_PASSWORD ?? randomBase62(20);
  const ids = await bootstrap({ org: "Default", email: e.ADMIN_EMAIL, password });
  const agents = [];
  if (e.SEED_DEMO) {
    for (const spec of DEMO_AGENTS) {
      agents.push(
        await createAgent({
          organizationId: ids.organization_id,
          input: CreateAgentBody.parse(spec),
          actor: { type: "system", label: "first start" },
        }),
      );
    }
  }
  const base = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
  const echo = agents.find((a) => a.kind === "conversational");
  // Printed once, to the console of the person who started the service; never logged again.
  const lines = [
    "",
    "Agent Webhook Service: first start",
    `  console     ${base}/  sign in as ${e.ADMIN_EMAIL}, password: ${e.ADMIN_PASSWORD ? "(from ADMIN_PASSWORD)" : password}`,
    `  organization  ${ids.organization_id} (Default), project ${ids.project_id}`,
    `  admin         ${e.ADMIN_EMAIL}  password: ${e.ADMIN_PASSWORD ? "(from ADMIN_PASSWORD)" : password}`,
    `  user token    ${ids.user_token}   (management API; shown once)`,
    ...agents.map((a) => `  agent         ${a.agent_id}  ${a.kind.padEnd(14)} ${a.name}`),
    "",
    "Mint an Access Key:",
    `  curl -s -X POST ${base}/api/v1/organizations/${ids.organization_id}/access-keys \\`,
    `    -H 'Authorization: Bearer ${ids.user_token}' -H 'Content-Type: application/json' \\`,
    `    -d '{"name":"my-integration","permissions":["agents:invoke"]}'`,
    ...(echo
      ? [
          "Send a first trigger with the returned key:",
          `  curl -s -X POST ${base}/api/agents/webhook/${echo.agent_id} \\`,
          `    -H 'Authorization: Bearer ak_...' -H 'Content-Type: application/json' -d '{"message":"hello"}'`,
        ]
      : []),
    "",
  ];
  console.log(lines.join("\n"));
  return true;
}
