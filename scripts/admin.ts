// Admin CLI: npm run admin -- <command> [options]. Uses DATA_DIR / DATABASE_URL exactly as the
// server does. On the embedded database it needs the server to be stopped (one process per folder).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { createAgent } from "../lib/agents/service";
import { CreateAgentBody } from "../lib/agents/schemas";
import { createUserToken } from "../lib/auth/user-tokens";
import { closeDatabase, database } from "../lib/db";
import { DataDirLockedError } from "../lib/db/lock";
import { isApiError } from "../lib/errors";
import { parseWith } from "../lib/validate";
import { MintKeyBody, RollKeyBody } from "../lib/keys/schemas";
import { mintKey, revokeKey, rollKey } from "../lib/keys/service";
import { bootstrap, ensureUser, findOrganization, findUserByEmail } from "../lib/orgs/service";
import { SecretParams, SetSecretBody } from "../lib/secrets/schemas";
import { setSecret } from "../lib/secrets/service";
import { backfillUsage } from "../lib/usage/backfill";

const USAGE = `usage: npm run admin -- <command> [options] [--json]

  bootstrap    --org NAME --email EMAIL --password PW
               create (or find) the organization, its default project and an admin; issue a user token
  create-user  --org ORG --email EMAIL [--password PW] [--role admin|support]
  create-token --email EMAIL [--name NAME]
  create-agent --org ORG --file agent.json
  mint-key     --org ORG --name NAME [--permissions agents:invoke,...] [--rate-limit N]
               [--expires-at RFC3339] [--agents agt_...,...]
               N: requests a minute on the public API (default: RATE_LIMIT_PER_MINUTE)
  revoke-key   --org ORG --key KEY_ID
  roll-key     --org ORG --key KEY_ID --grace SECONDS
               mint a successor (shown once); the old key works SECONDS more (0, or 3600 to 604800)
  set-secret   --org ORG --name NAME   (the value is read from standard input, never from the command line)
               create or replace an organization secret that agents name (api_key_secret, {{secrets.NAME}})
  usage-backfill [--org ORG]
               recompute the usage rollups of the hours before this one from messages, runs and files

ORG is an org_ id or an organization name.`;

const cliActor = { type: "system" as const, label: "admin-cli" };

function need(values: Record<string, unknown>, ...names: string[]) {
  for (const n of names) {
    if (typeof values[n] !== "string" || !values[n]) throw new UsageError(`--${n} is required`);
  }
}

class UsageError extends Error {}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      org: { type: "string" },
      email: { type: "string" },
      password: { type: "string" },
      role: { type: "string" },
      name: { type: "string" },
      file: { type: "string" },
      permissions: { type: "string" },
      key: { type: "string" },
      "rate-limit": { type: "string" },
      "expires-at": { type: "string" },
      agents: { type: "string" },
      grace: { type: "string" },
      json: { type: "boolean", default: false },
    },
    strict: true,
  });
  const v = values as Record<string, string | undefined> & { json: boolean };
  let out: Record<string, unknown>;
  let human: string;
  switch (command) {
    case "bootstrap": {
      need(v, "org", "email", "password");
      await database();
      out = await bootstrap({ org: v.org!, email: v.email!, password: v.password! });
      human = `organization ${out.organization_id}\nproject      ${out.project_id}\nuser         ${out.user_id}\nuser token   ${out.user_token}  (shown once)`;
      break;
    }
    case "create-user": {
      need(v, "org", "email");
      const role = v.role ?? "support";
      if (role !== "admin" && role !== "support") throw new UsageError("--role must be admin or support");
      const org = await findOrganization(v.org!);
      const user = await ensureUser({ organizationId: org.id, email: v.email!, password: v.password, role });
      out = { user_id: user.id, organization_id: org.id, email: user.email, role };
      human = `user ${user.id} (${user.email}) is ${role} of ${org.id}`;
      break;
    }
    case "create-token": {
      need(v, "email");
      const user = await findUserByEmail(v.email!);
      const t = await createUserToken({ userId: user.id, name: v.name ?? "cli" });
      out = { user_id: user.id, token_id: t.token_id, user_token: t.token };
      human = `user token ${t.token}  (shown once)`;
      break;
    }
    case "create-agent": {
      need(v, "org", "file");
      const org = await findOrganization(v.org!);
      const input = parseWith(CreateAgentBody, JSON.parse(readFileSync(v.file!, "utf8")), "agent file");
      out = await createAgent({ organizationId: org.id, input, actor: cliActor });
      human = `agent ${out.agent_id} (${out.kind}) created`;
      break;
    }
    case "mint-key": {
      need(v, "org", "name");
      const org = await findOrganization(v.org!);
      const permissions = v.permissions
        ? v.permissions
            .split(",")
            .map((p) => p.trim())
            .filter(Boolean)
        : undefined;
      const rateLimit = v["rate-limit"];
      if (rateLimit !== undefined && !/^\d+$/.test(rateLimit))
        throw new UsageError("--rate-limit must be a whole number");
      const input = parseWith(
        MintKeyBody,
        {
          name: v.name,
          permissions,
          rate_limit_per_minute: rateLimit === undefined ? undefined : Number(rateLimit),
          expires_at: v["expires-at"],
          agent_ids: v.agents?.split(",").map((a) => a.trim()),
        },
        "options",
      );
      out = await mintKey({ organizationId: org.id, input, actor: cliActor });
      human = `access key ${out.key_id}: ${out.key}  (shown once)`;
      break;
    }
    case "revoke-key": {
      need(v, "org", "key");
      const org = await findOrganization(v.org!);
      out = await revokeKey({ organizationId: org.id, keyId: v.key!, actor: cliActor });
      human = `access key ${out.key_id} revoked at ${out.revoked_at}`;
      break;
    }
    case "roll-key": {
      need(v, "org", "key", "grace");
      if (!/^\d+$/.test(v.grace!)) throw new UsageError("--grace must be a whole number of seconds");
      const org = await findOrganization(v.org!);
      const input = parseWith(RollKeyBody, { grace_period_seconds: Number(v.grace) }, "options");
      out = await rollKey({ organizationId: org.id, keyId: v.key!, input, actor: cliActor });
      human = `access key ${out.key_id}: ${out.key}  (shown once; rolled from ${v.key})`;
      break;
    }
    case "usage-backfill": {
      const org = v.org ? await findOrganization(v.org) : undefined;
      const rows = await backfillUsage({ organizationId: org?.id });
      out = { rows };
      human = `usage rollups recomputed: ${rows} rows`;
      break;
    }
    case "set-secret": {
      need(v, "org", "name");
      const org = await findOrganization(v.org!);
      const params = parseWith(SecretParams.pick({ name: true }), { name: v.name }, "options");
      // A value on the command line would show in `ps` and the shell's history: standard input only.
      const body = parseWith(SetSecretBody, { value: readFileSync(0, "utf8") }, "standard input");
      const { secret, created } = await setSecret({
        organizationId: org.id,
        name: params.name,
        value: body.value,
        actor: cliActor,
      });
      out = secret;
      human = `secret ${secret.name} ${created ? "created" : "replaced"} (…${secret.hint ?? ""})`;
      break;
    }
    default:
      throw new UsageError(command ? `unknown command ${command}` : "no command given");
  }
  console.log(v.json ? JSON.stringify(out) : human);
}

process.env.LOG_LEVEL ??= "warn";
try {
  await main(process.argv.slice(2));
  await closeDatabase();
} catch (e) {
  await closeDatabase().catch(() => {});
  if (e instanceof UsageError || (e as { code?: string }).code?.startsWith?.("ERR_PARSE_ARGS")) {
    console.error(`${(e as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (e instanceof DataDirLockedError || isApiError(e)) {
    console.error(`error: ${(e as Error).message}`);
    if (isApiError(e) && e.details) console.error(JSON.stringify(e.details));
    process.exit(1);
  }
  throw e;
}
