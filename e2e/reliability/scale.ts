// Sizes of the reliability suites: `npm test` (CI) runs the bounded size, `npm run test:reliability`
// sets RELIABILITY=full for the size the issue asks for. Every suite prints its size (and its
// seed, where it draws random cases) so a failure can be replayed.
export const FULL = process.env.RELIABILITY === "full";

/** `full` under `npm run test:reliability`, `ci` otherwise. */
export function scale<T>(sizes: { full: T; ci: T }): T {
  return FULL ? sizes.full : sizes.ci;
}
