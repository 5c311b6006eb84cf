// The one door to Next's private modules (`next/dist/...`): the fast path (./fast-routes.ts) answers
// the hot routes with Next's own compression, header filtering, body piping and route loader, none
// of which is a public API, so a Next release may move or reshape any of them. Each one used is
// listed here with the shape it must have; at start-up they are loaded and checked, and when one is
// missing or reshaped the server logs one line naming it and serves every request through Next's
// router (the fast path off), never a failed start. next-internals.test.ts loads them from the
// installed `next` and fails on any change, so an upgrade's CI names what to port. `next` is pinned
// to an exact version in package.json: an upgrade is a deliberate commit.
import { createRequire } from "node:module";
import type http from "node:http";

export type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;

/** What the fast path uses of Next, typed as it calls it. */
export interface NextInternals {
  /** Next's bundled `compression` package: the middleware of its own answers. */
  compression: () => Middleware;
  /** Frees the compression stream of an answer whose client left. */
  releaseCompressionStream: (res: http.ServerResponse) => void;
  /** Drops the headers only Next's own processes may send (x-middleware-*, ...). */
  filterInternalHeaders: (headers: http.IncomingHttpHeaders) => void;
  /** Writes a Response body to the Node answer as Next does (flushes, aborts). */
  pipeToNodeResponse: (body: ReadableStream<Uint8Array>, res: http.ServerResponse) => Promise<void>;
  /** Loads a compiled route module of the build (a plain `require`: the instance Next runs). */
  requirePage: (page: string, distDir: string, isAppPath: boolean) => Promise<unknown>;
}

/**
 * Each internal: the module, the export (`null`: the module itself is the function) and the number
 * of declared parameters (`Function.length`) of the version pinned in package.json. A change of
 * parameters is a change of meaning the call sites must be checked against, so it counts as missing.
 */
export const NEXT_INTERNALS: ReadonlyArray<{
  name: keyof NextInternals;
  module: string;
  export: string | null;
  arity: number;
}> = [
  { name: "compression", module: "next/dist/compiled/compression", export: null, arity: 1 },
  {
    name: "releaseCompressionStream",
    module: "next/dist/server/lib/release-compression-stream",
    export: "releaseCompressionStream",
    arity: 1,
  },
  {
    name: "filterInternalHeaders",
    module: "next/dist/server/lib/server-ipc/utils",
    export: "filterInternalHeaders",
    arity: 1,
  },
  { name: "pipeToNodeResponse", module: "next/dist/server/pipe-readable", export: "pipeToNodeResponse", arity: 4 },
  { name: "requirePage", module: "next/dist/server/require", export: "requirePage", arity: 3 },
];

/** Loads a module by its specifier (Node's `require` in production; a stand-in in tests). */
export type ModuleLoader = (specifier: string) => unknown;

const nodeRequire: ModuleLoader = createRequire(import.meta.url);

export type InternalsCheck = { ok: true; internals: NextInternals } | { ok: false; missing: string[] };

/** What is wrong with one internal as loaded, or undefined when it has the expected shape. */
function problemOf(
  entry: { module: string; export: string | null; arity: number },
  load: ModuleLoader,
): { fn?: unknown; problem?: string } {
  const where = entry.export ? `${entry.module} ${entry.export}` : entry.module;
  let mod: unknown;
  try {
    mod = load(entry.module);
  } catch {
    return { problem: `${where} (module not found)` };
  }
  const fn = entry.export ? (mod as Record<string, unknown> | null | undefined)?.[entry.export] : mod;
  if (typeof fn !== "function") return { problem: `${where} (expected a function, found ${typeof fn})` };
  if (fn.length !== entry.arity) {
    return { problem: `${where} (expected ${entry.arity} parameters, found ${fn.length})` };
  }
  return { fn };
}

/** Loads and checks every internal: all of them, or the list of what is missing or reshaped. */
export function loadNextInternals(load: ModuleLoader = nodeRequire): InternalsCheck {
  const found: Partial<Record<keyof NextInternals, unknown>> = {};
  const missing: string[] = [];
  for (const entry of NEXT_INTERNALS) {
    const { fn, problem } = problemOf(entry, load);
    if (problem) missing.push(problem);
    else found[entry.name] = fn;
  }
  return missing.length ? { ok: false, missing } : { ok: true, internals: found as unknown as NextInternals };
}

/** The one line logged when the fast path cannot start. */
export function fastPathOffLine(missing: string[]): string {
  return `fast routes off: Next's internals changed (missing or reshaped: ${missing.join("; ")}); every request goes through Next's router`;
}

/**
 * Start-up: Next registers `instrumentation.ts` (its `register()`: lib/boot.ts, the database, the
 * migrations, the first start, the worker) once per process, at the first request in production.
 * server.ts runs that same registration before it listens (Next's later call finds it done), so that
 * a start that fails exits with its message rather than answering every request 500 (docs/deploy.md,
 * Start-up and exit codes). Not part of NEXT_INTERNALS: the fast path does not need it.
 */
export const NEXT_START_UP = {
  name: "ensureInstrumentationRegistered",
  module: "next/dist/server/lib/router-utils/instrumentation-globals.external",
  export: "ensureInstrumentationRegistered",
  arity: 2,
} as const;

/** Registers the build's instrumentation once per process (memoized by Next); rejects with its error. */
export type RegisterInstrumentation = (projectDir: string, distDir: string) => Promise<void>;

export type StartUpCheck = { ok: true; register: RegisterInstrumentation } | { ok: false; missing: string };

/** Loads and checks Next's registration of the instrumentation hook. */
export function loadStartUp(load: ModuleLoader = nodeRequire): StartUpCheck {
  const { fn, problem } = problemOf(NEXT_START_UP, load);
  return problem ? { ok: false, missing: problem } : { ok: true, register: fn as RegisterInstrumentation };
}

/** The one line logged when start-up cannot run before listening: it runs at the first request then. */
export function startUpLateLine(missing: string): string {
  return `start-up at the first request: Next's internals changed (missing or reshaped: ${missing}); a start that fails answers 500 instead of exiting`;
}

/** A start-up error's own message, without the words Next puts in front of it. */
export function startUpMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/^An error occurred while loading (the )?instrumentation hook: /, "");
}
