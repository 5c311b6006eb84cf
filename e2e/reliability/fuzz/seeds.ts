// The fuzz suites' seeds: a fixed one in CI, a fresh one at full size, FUZZ_SEED to replay; and
// runProperty, which runs a fast-check property with it and names how to replay a failure.
import fc from "fast-check";
import { FULL } from "../scale";

/**
 * The seed of a suite: FUZZ_SEED replays a run. Otherwise the bounded CI size uses a fixed seed, so
 * that `npm test` passes or fails the same way every time (a new case must not fail an unrelated
 * change), and the full size (`npm run test:reliability`) draws a fresh one to explore further.
 * Either way the suite prints it.
 */
export const CI_SEED = 20261126;
export const baseSeed = (): number =>
  process.env.FUZZ_SEED
    ? Number(process.env.FUZZ_SEED)
    : FULL
      ? (Date.now() ^ Math.floor(Math.random() * 2 ** 31)) | 0
      : CI_SEED;

/** A property's own seed: the suite's mixed with the property's name (filtering tests changes nothing). */
export function seedFor(base: number, label: string): number {
  let h = base | 0;
  for (const c of label) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return h;
}

/**
 * Runs a property with the suite's seed (FUZZ_PATH, fast-check's path of a failing case, goes
 * straight to that case). A failure names the counterexample and how to replay it.
 */
export async function runProperty<T>(opts: {
  label: string;
  base: number;
  numRuns: number;
  arb: fc.Arbitrary<T>;
  test: (value: T) => Promise<void>;
  /** Replay command after FUZZ_SEED=... FUZZ_PATH=... */
  replay: string;
}) {
  const out = await fc.check(fc.asyncProperty(opts.arb, opts.test), {
    seed: seedFor(opts.base, opts.label),
    path: process.env.FUZZ_PATH || undefined,
    numRuns: opts.numRuns,
  });
  if (out.failed) {
    throw new Error(
      `${fc.defaultReportMessage(out)}\n\nReplay: FUZZ_SEED=${opts.base} FUZZ_PATH=${out.counterexamplePath} ${opts.replay}`,
      { cause: out.errorInstance },
    );
  }
  return out.numRuns;
}
