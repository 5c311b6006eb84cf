export default function Home() {
  return (
    <main>
      <h1>Agent Webhook Service</h1>
      <p>
        Trigger hosted AI agents over HTTP with an Access Key, upload large files for them, poll replies and workflow
        runs, and control runs.
      </p>
      <ul>
        <li>
          Public API: <code>POST /api/agents/webhook/{"{agent_id}"}</code> with <code>Authorization: Bearer ak_…</code>
        </li>
        <li>
          Management API: <code>/api/v1/organizations/{"{org_id}"}/access-keys</code> and <code>…/agents</code> with a
          user token
        </li>
        <li>
          Health: <a href="/api/health">/api/health</a>
        </li>
      </ul>
      <p>
        Documentation: <code>README.md</code>, <code>docs/api.md</code>, <code>docs/decisions.md</code> and{" "}
        <code>docs/deploy.md</code> in the repository.
      </p>
    </main>
  );
}
