// json_schema checks (lib/evaluations/checks.ts): a schema an admin wrote, matched against outputs
// a model wrote. Ajv compiles the schema to code and its `pattern`s to regular expressions, and a
// backtracking expression can run for ever, so validation runs on a worker thread of its own, one
// request at a time, with a deadline (EXPRESSION_TIMEOUT_MS) and a heap limit (EXPRESSION_MEMORY_MB):
// past the deadline the thread is terminated (that stops a regular expression mid-match) and the
// next request starts a new one.
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { env } from "../env";
import { processSlot } from "../process-state";

/** The thread's code, as text (it travels inside every bundle, like lib/expressions/child.ts). */
const SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Ajv = require(workerData.ajvPath);
const ajv = new (Ajv.default || Ajv)({ strict: false, allErrors: false, validateSchema: true });
const compiled = new Map();
parentPort.on("message", (m) => {
  try {
    let validate = compiled.get(m.schema);
    if (!validate) {
      if (compiled.size >= 100) compiled.clear();
      validate = ajv.compile(JSON.parse(m.schema));
      compiled.set(m.schema, validate);
    }
    const results = m.values.map((v) => (validate(v) ? null : ajv.errorsText(validate.errors, { dataVar: "output" })));
    parentPort.postMessage({ id: m.id, results });
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: String((e && e.message) || e) });
  }
});
`;

function ajvPath(): string {
  for (const base of [path.join(process.cwd(), "package.json"), process.argv[1]]) {
    try {
      if (base) return createRequire(base).resolve("ajv/dist/2020");
    } catch {
      /* try the next */
    }
  }
  throw new Error("the ajv package cannot be found from the working directory or the entry script");
}

/** A schema that does not compile, or a validation past its bounds. */
export class SchemaCheckError extends Error {}

interface Checker {
  worker?: Worker;
  nextId: number;
  /** Requests run one at a time, in order. */
  tail: Promise<unknown>;
}

const slot = processSlot<Checker>("schemaChecker");
const checker = (): Checker => {
  let c = slot.get();
  if (!c) slot.set((c = { nextId: 1, tail: Promise.resolve() }));
  return c;
};

function workerOf(c: Checker): Worker {
  if (!c.worker) {
    c.worker = new Worker(SOURCE, {
      eval: true,
      workerData: { ajvPath: ajvPath() },
      resourceLimits: { maxOldGenerationSizeMb: env().EXPRESSION_MEMORY_MB },
    });
    c.worker.unref();
    const gone = () => (c.worker = undefined);
    c.worker.once("exit", gone);
    c.worker.once("error", gone);
  }
  return c.worker;
}

function ask(c: Checker, schema: string, values: unknown[]): Promise<(string | null)[]> {
  const worker = workerOf(c);
  const id = c.nextId++;
  const timeoutMs = env().EXPRESSION_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("exit", onExit);
    };
    const onMessage = (m: { id: number; results?: (string | null)[]; error?: string }) => {
      if (m.id !== id) return;
      done();
      if (m.error !== undefined) reject(new SchemaCheckError(m.error));
      else resolve(m.results!);
    };
    const onExit = () => {
      done();
      reject(new SchemaCheckError("the schema check ran out of memory"));
    };
    const timer = setTimeout(() => {
      done();
      c.worker = undefined;
      void worker.terminate();
      reject(new SchemaCheckError(`the schema check took longer than ${timeoutMs} ms`));
    }, timeoutMs);
    worker.on("message", onMessage);
    worker.once("exit", onExit);
    worker.postMessage({ id, schema, values });
  });
}

/**
 * Matches each of `values` against `schema`: null for a match, else Ajv's account of the first
 * mismatch. Rejects with SchemaCheckError when the schema does not compile or the check runs past
 * its bounds. With no values it only compiles the schema (the check of a request).
 */
export function validateWithSchema(schema: unknown, values: unknown[]): Promise<(string | null)[]> {
  const c = checker();
  const run = c.tail.then(() => ask(c, JSON.stringify(schema), values));
  c.tail = run.catch(() => undefined);
  return run;
}

/** Ends the checker's thread (graceful shutdown, tests); a later check starts another. */
export async function closeSchemaChecker() {
  const c = slot.get();
  const w = c?.worker;
  if (c) c.worker = undefined;
  await w?.terminate();
}
