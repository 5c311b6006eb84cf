// Every answer an API test receives is held to the schema its route's contract gives it: a 2xx JSON
// answer is parsed with the contract's response schema for that status (strict objects refuse an
// extra field), and a status the contract does not list fails. `call` (./helpers.ts) runs this on
// every request the api and security suites send; e2e/api/answers.test.ts sends each route of the
// contracts a valid request (ARCHITECTURE.md, Route contracts).
import { CONTRACTS } from "../../app/api/contracts";
import { jsonSchemaOf, markerOf, type RouteContract } from "../../lib/http/contract";
import { matchRoute } from "../../lib/http/routes";

const table = [...new Set(CONTRACTS.map((c) => c.path))].map((pattern) => ({
  pattern,
  methods: CONTRACTS.filter((c) => c.path === pattern).map((c) => c.method as string),
}));

/** The contract of a request, or undefined when the path is no API route (pages, /docs). */
export function contractOf(method: string, pathname: string): RouteContract | undefined {
  const entry = matchRoute(table, pathname);
  return entry && CONTRACTS.find((c) => c.path === entry.pattern && c.method === method.toUpperCase());
}

/** `METHOD pattern status` of every answer checked against a schema in this test file. */
export const CHECKED = new Set<string>();

const isJson = (contentType: string | null) => /^application\/json\b/i.test(contentType ?? "");

/**
 * Throws when a 2xx answer is not what the contract of its route says: a status it does not list,
 * a JSON body its schema refuses, or JSON where the contract says there is none.
 */
export function checkAnswer(
  method: string,
  url: string,
  res: { status: number; headers: Headers; text: string; body: unknown },
): void {
  if (res.status < 200 || res.status > 299) return;
  const { pathname } = new URL(url);
  const contract = contractOf(method, pathname);
  if (!contract) return;
  const where = `${contract.method} ${contract.path} (${method} ${pathname})`;
  const answer = contract.responses[res.status];
  if (!answer) {
    throw new Error(`${where} answered ${res.status}, which its contract does not list: ${res.text.slice(0, 300)}`);
  }
  const schema = jsonSchemaOf(answer);
  // A file, text, a redirect or Auth.js's own answer: its bytes are not ours to describe.
  if (!schema) return;
  const type = res.headers.get("content-type");
  if (!isJson(type)) {
    if (markerOf(answer)?.body === "jsonOrEventStream" && /^text\/event-stream\b/i.test(type ?? "")) return;
    throw new Error(`${where} answered ${res.status} as ${type}; its contract says JSON`);
  }
  const parsed = schema.safeParse(res.body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new Error(`${where} ${res.status}: the answer is not its contract's schema: ${issues}`);
  }
  CHECKED.add(`${contract.method} ${contract.path} ${res.status}`);
}
