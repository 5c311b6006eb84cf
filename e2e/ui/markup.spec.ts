// Threat model row T-HTML-1 (docs/security.md): text a caller stores (an agent's name, a message, a
// run's item data, a file name) is shown as text on every page, never run as markup or script.
import { call, expect, management, test, ui } from "./fixtures";

const MARKUP = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><b>bold</b>`;

test("T-HTML-1 stored markup renders as text on the agents, agent, session and run pages", async ({ as }) => {
  const agent = await management.createAgent({ name: MARKUP, kind: "conversational", runtime: { type: "echo" } });
  const workflow = await management.createAgent({
    name: `wf ${MARKUP}`,
    kind: "workflow",
    runtime: { type: "echo" },
    workflow: {
      inputs: { rows: { type: "array", required: true } },
      items: { from: "rows" },
      steps: [{ id: "look", type: "review", when: "true", message: MARKUP }],
    },
  });
  const key = await management.mintKey("orgA", "markup");
  const reply = await call("POST", `/api/agents/webhook/${agent.agent_id}`, {
    auth: key,
    body: { message: MARKUP, user_id: MARKUP, metadata: { note: MARKUP } },
  });
  expect(reply.status).toBe(200);
  const run = await call("POST", `/api/agents/webhook/${workflow.agent_id}`, {
    auth: key,
    body: { rows: [{ v: MARKUP }] },
  });
  expect(run.status).toBe(202);
  const form = new FormData();
  form.append("file", new Blob(["x"]), `${MARKUP}.txt`);
  expect((await fetchUpload(agent.agent_id, key, form)).status).toBe(200);

  const page = await as("adminA");
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  for (const path of [
    "/agents",
    `/agents/${agent.agent_id}`,
    `/sessions/${reply.body.session_id}`,
    `/runs/${run.body.run_id}`,
  ]) {
    await page.goto(path);
    await expect(page.getByText(MARKUP).first()).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    // No element made from the stored text: the only <img onerror> or <b>bold</b> would be ours.
    expect(await page.locator("img[onerror], b:text-is('bold')").count()).toBe(0);
  }
  expect(dialogs).toEqual([]);
});

function fetchUpload(agentId: string, key: string, form: FormData) {
  return fetch(`${ui().baseUrl}/api/agents/${agentId}/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
}
