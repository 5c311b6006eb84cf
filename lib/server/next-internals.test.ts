// The fast path's hold on Next's private modules: the installed `next` has each one with the shape
// the fast path calls (a failure here after an upgrade names what to port), and a missing or
// reshaped one turns the fast path off with one line instead of failing the start.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { fastRoutes } from "./fast-routes";
import {
  fastPathOffLine,
  loadNextInternals,
  loadStartUp,
  NEXT_INTERNALS,
  NEXT_START_UP,
  startUpLateLine,
  startUpMessage,
  type ModuleLoader,
} from "./next-internals";

const realRequire = createRequire(import.meta.url);

/** The installed modules, except that `specifier` answers `replacement` (or throws when it is "throw"). */
function loaderWith(specifier: string, replacement: unknown): ModuleLoader {
  return (id) => {
    if (id !== specifier) return realRequire(id);
    if (replacement === "throw") throw new Error(`Cannot find module '${id}'`);
    return replacement;
  };
}

const options = (load: ModuleLoader, lines: string[]) => ({
  distDir: "/nonexistent/.next",
  port: 3000,
  origin: "http://127.0.0.1:3000",
  fallback: () => {},
  load,
  warn: (line: string) => lines.push(line),
});

describe("Next's internals used by the fast path", () => {
  it("are all in the installed next, with their shapes", () => {
    const check = loadNextInternals();
    expect(check.ok ? [] : check.missing).toEqual([]);
  });

  it.each(NEXT_INTERNALS.map((e) => [e.export ? `${e.module} ${e.export}` : e.module, e] as const))(
    "%s is a function of the expected parameters",
    (_, entry) => {
      const mod = realRequire(entry.module) as Record<string, unknown>;
      const fn = entry.export ? mod[entry.export] : mod;
      expect(typeof fn).toBe("function");
      expect((fn as (...args: unknown[]) => unknown).length).toBe(entry.arity);
    },
  );

  it("reports a module that is gone, an export that is gone and one with other parameters", () => {
    const gone = loadNextInternals(loaderWith("next/dist/server/require", "throw"));
    expect(gone).toEqual({ ok: false, missing: ["next/dist/server/require requirePage (module not found)"] });

    const noExport = loadNextInternals(loaderWith("next/dist/server/pipe-readable", {}));
    expect(noExport).toEqual({
      ok: false,
      missing: ["next/dist/server/pipe-readable pipeToNodeResponse (expected a function, found undefined)"],
    });

    const reshaped = loadNextInternals(
      loaderWith("next/dist/server/lib/server-ipc/utils", {
        filterInternalHeaders: (a: unknown, b: unknown) => [a, b],
      }),
    );
    expect(reshaped).toEqual({
      ok: false,
      missing: ["next/dist/server/lib/server-ipc/utils filterInternalHeaders (expected 1 parameters, found 2)"],
    });
  });

  it("turns the fast path off with one line naming what is missing, rather than failing", () => {
    const lines: string[] = [];
    const serve = fastRoutes(options(loaderWith("next/dist/compiled/compression", "throw"), lines));
    expect(serve).toBeUndefined();
    expect(lines).toEqual([fastPathOffLine(["next/dist/compiled/compression (module not found)"])]);
    expect(lines[0]).toBe(
      "fast routes off: Next's internals changed (missing or reshaped: next/dist/compiled/compression (module not found)); every request goes through Next's router",
    );
  });
});

describe("Next's registration of instrumentation.ts, which server.ts runs before it listens", () => {
  it("is in the installed next, with its shape", () => {
    const check = loadStartUp();
    expect(check.ok ? "" : check.missing).toBe("");
  });

  it("reports it missing, and the line says start-up then waits for the first request", () => {
    const check = loadStartUp(loaderWith(NEXT_START_UP.module, "throw"));
    const missing = `${NEXT_START_UP.module} ensureInstrumentationRegistered (module not found)`;
    expect(check).toEqual({ ok: false, missing });
    expect(startUpLateLine(missing)).toBe(
      `start-up at the first request: Next's internals changed (missing or reshaped: ${missing}); a start that fails answers 500 instead of exiting`,
    );
  });

  it("tells a start-up error by its own message, without the words Next puts in front", () => {
    const err = new Error("An error occurred while loading instrumentation hook: connect ECONNREFUSED 127.0.0.1:1");
    expect(startUpMessage(err)).toBe("connect ECONNREFUSED 127.0.0.1:1");
    expect(startUpMessage(new Error("data folder x is already open in this process"))).toBe(
      "data folder x is already open in this process",
    );
  });
});
