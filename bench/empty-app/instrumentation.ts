// The empty app's own instrumentation hook, which does nothing: without it `next build` of this
// folder (run from the project's root) takes the project's instrumentation.ts, whose start-up opens
// the service's database and loads its native addons, and every request of the baseline fails.
export function register() {}
