// Fuzzing every route of the build's route table (public, management, console, the catch-all,
// health, downloads, tus, Auth.js): paths, query strings, headers, credentials (mostly valid, some
// missing or wrong), JSON shapes, unicode, huge numbers and deep nesting. Whatever the request, the
// answer comes within HANG_MS, is never a 5xx (no storage fault is injected, so the upload's 500 does
// not apply), and every 4xx is the error envelope with a code of lib/errors.ts that matches its
// status and an X-Request-Id. A new route file is fuzzed without being listed anywhere.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send } from "./fuzz/http";
import { checkAnswer, logMark, expectNoUncaught } from "./fuzz/invariants";
import { requestArb } from "./fuzz/requests";
import { baseSeed, runProperty } from "./fuzz/seeds";
import { routeTargets, setupFixtures, type Fixtures } from "./fuzz/targets";
import { scale } from "./scale";

/** ~72 route-method pairs: about 1,000 cases in CI, 9,000 in the full run. */
const PER_ROUTE = scale({ full: 125, ci: 12 });
const BASE_SEED = baseSeed();

const targets = await routeTargets();
let f: Fixtures;
let mark: number;
const statuses = new Map<number, number>();
let sent = 0;

beforeAll(async () => {
  mark = logMark();
  f = await setupFixtures();
  console.log(
    `[fuzz] routes: ${targets.length} route-method pairs x ${PER_ROUTE} cases, seed ${BASE_SEED} ` +
      `(replay: FUZZ_SEED=${BASE_SEED})`,
  );
});

afterAll(() => {
  const histogram = Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0]));
  console.log(`[fuzz] routes: ${sent} requests answered; statuses ${JSON.stringify(histogram)}`);
});

describe("route table", () => {
  it("has every route file of the app, each with a family and its methods", () => {
    expect(targets.length).toBeGreaterThan(60);
    for (const family of ["access_key", "user_token", "console", "public", "auth_js", "catch_all"]) {
      expect(
        targets.some((t) => t.family === family),
        family,
      ).toBe(true);
    }
    // The route lists of e2e/api give the fuzz its example bodies.
    expect(targets.find((t) => t.pattern === "/api/agents/webhook/[agent_id]")?.examples.length).toBeGreaterThan(0);
    expect(
      targets.find((t) => t.pattern === "/api/v1/organizations/[org_id]/access-keys" && t.method === "POST")?.examples
        .length,
    ).toBe(1);
  });
});

describe.each(targets.map((t) => [`${t.method} ${t.pattern}`, t] as const))("fuzz %s", (label, target) => {
  it("answers every request in time, never 5xx, 4xx in the error envelope", async () => {
    await runProperty({
      label,
      base: BASE_SEED,
      numRuns: PER_ROUTE,
      arb: requestArb(target, f),
      replay: `npx vitest run --project reliability e2e/reliability/fuzz-routes.test.ts -t "${label}"`,
      test: async (r) => {
        const res = await send(f.base, r.sendable(f));
        sent++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        checkAnswer({ method: r.method, target: r.path, family: target.family }, res);
        if (target.endsSessions && res.status < 300) await f.refreshSessions();
      },
    });
  });
});

describe("the server", () => {
  it("logged no uncaught exception or unhandled rejection during the fuzz", () => {
    expectNoUncaught(mark);
  });
});
