/** Where to go after sign-in: only a path of this site, never another origin (open redirect). */
export function safeNext(next: string | undefined): string {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}
