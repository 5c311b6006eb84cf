// The table of route handlers (app/**/route.ts and the HTTP methods each exports), made at build
// time by scripts/route-table.mjs, and what the production server derives from it: which route a
// path reaches (Next's precedence) and the `Allow` header of a 405.

/** The methods a route handler can export (Next's HTTP_METHODS). */
export const ROUTE_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;

/** One row of the build's table: a route file (`app/.../route.ts`) and the methods it exports. */
export interface RouteFile {
  file: string;
  methods: string[];
}

export interface RouteEntry {
  /** The URL pattern as the folders spell it: `/api/agents/[agent_id]/runs`, `/api/[...path]`. */
  pattern: string;
  /** The methods the file exports, sorted. */
  methods: string[];
}

/** `app/api/(group)/x/[id]/route.ts` (relative to the project) -> `/api/x/[id]`. */
export function routePattern(file: string): string {
  const segments = file.split(/[\\/]/);
  if (segments[0] !== "app" || segments.at(-1) !== "route.ts") throw new Error(`not a route file: ${file}`);
  const kept = segments.slice(1, -1).filter((s) => !/^\(.*\)$/.test(s) && !s.startsWith("@"));
  return `/${kept.join("/")}`;
}

export const routeEntries = (files: readonly RouteFile[]): RouteEntry[] =>
  files.map((f) => ({ pattern: routePattern(f.file), methods: f.methods }));

/**
 * What Next serves on a route exporting `exported`: those, HEAD when GET is there (Next runs GET
 * for it), and OPTIONS (Next answers it with the same list). Sorted, as Next's own `Allow`.
 */
export function allowedMethods(exported: readonly string[]): string[] {
  const served = new Set(exported.filter((m) => (ROUTE_METHODS as readonly string[]).includes(m)));
  if (served.has("GET")) served.add("HEAD");
  served.add("OPTIONS");
  return [...served].sort();
}

/**
 * Routes whose methods depend on how many segments their optional catch-all holds: the tus route
 * creates uploads at its collection URL and reads, continues and deletes one at an upload's URL
 * (app/api/agents/[agent_id]/upload/tus/[[...path]]/tus.ts refuses the rest with the same `Allow`).
 */
export const METHODS_BY_DEPTH: Record<string, Record<number, readonly string[]>> = {
  "/api/agents/[agent_id]/upload/tus/[[...path]]": { 0: ["POST"], 1: ["GET", "PATCH", "DELETE"] },
};

/** The methods `route` serves at `pathname` (allowedMethods, narrowed by METHODS_BY_DEPTH). */
export function allowedAt(route: RouteEntry, pathname: string): string[] {
  const byDepth = METHODS_BY_DEPTH[route.pattern];
  const served = byDepth?.[split(pathname).length - split(route.pattern).length + 1];
  return allowedMethods(served ? route.methods.filter((m) => served.includes(m)) : route.methods);
}

/** Rank of a segment in Next's order: static before `[x]` before `[...x]` before `[[...x]]`. */
function rank(segment: string): number {
  if (segment.startsWith("[[...")) return 3;
  if (segment.startsWith("[...")) return 2;
  if (segment.startsWith("[")) return 1;
  return 0;
}

function matches(pattern: string[], path: string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const seg = pattern[i]!;
    const r = rank(seg);
    if (r === 3) return i === pattern.length - 1;
    if (r === 2) return i === pattern.length - 1 && path.length > i;
    if (i >= path.length) return false;
    if (r === 0 && seg !== path[i]) return false;
  }
  return pattern.length === path.length;
}

const split = (p: string) => p.split("/").filter(Boolean);

/**
 * The route a pathname reaches, with Next's precedence: of the patterns that match, the one that
 * is more specific at the first segment where they differ (static, then dynamic, then catch-all).
 */
export function matchRoute(table: readonly RouteEntry[], pathname: string): RouteEntry | undefined {
  let segments: string[];
  try {
    segments = split(pathname).map((s) => decodeURIComponent(s));
  } catch {
    return undefined; // a malformed escape reaches no route
  }
  let best: { entry: RouteEntry; ranks: number[] } | undefined;
  for (const entry of table) {
    const pattern = split(entry.pattern);
    if (!matches(pattern, segments)) continue;
    const ranks = pattern.map(rank);
    if (!best || moreSpecific(ranks, best.ranks)) best = { entry, ranks };
  }
  return best?.entry;
}

function moreSpecific(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? -1;
    const y = b[i] ?? -1;
    if (x !== y) return x < y;
  }
  return false;
}

interface MatchNode {
  /** The pattern of a route that ends at this node. */
  route?: string;
  /** Static children as [segment, node], tried first (in Next's precedence). */
  statics: [string, MatchNode][];
  dynamic?: MatchNode;
  /** `[...x]`: one or more segments. */
  catchAll?: string;
  /** `[[...x]]`: zero or more segments. */
  optionalCatchAll?: string;
}

const SLASH = 47;

/**
 * `matchRoute` for the hot path (the request metrics' `route` label, server.ts): the table compiled
 * into a tree once, and a match that walks the URL in place, allocating nothing. Takes the raw
 * request target (`/a/b?query`); returns the route's pattern, or undefined when none matches. A
 * target with a percent escape goes to `matchRoute`, which decodes segments first.
 */
export function routeMatcher(table: readonly RouteEntry[]): (target: string) => string | undefined {
  const root: MatchNode = { statics: [] };
  for (const entry of table) {
    let node = root;
    let catchAll = false; // a catch-all is the last segment of its pattern
    for (const seg of split(entry.pattern)) {
      const r = rank(seg);
      if (r >= 2) {
        if (r === 3) node.optionalCatchAll = entry.pattern;
        else node.catchAll = entry.pattern;
        catchAll = true;
        break;
      }
      if (r === 1) node = node.dynamic ??= { statics: [] };
      else {
        let child = node.statics.find(([name]) => name === seg)?.[1];
        if (!child) node.statics.push([seg, (child = { statics: [] })]);
        node = child;
      }
    }
    if (!catchAll) node.route = entry.pattern;
  }

  const walk = (node: MatchNode, url: string, pos: number, end: number): string | undefined => {
    while (pos < end && url.charCodeAt(pos) === SLASH) pos++;
    if (pos >= end) return node.route ?? node.optionalCatchAll;
    let segEnd = url.indexOf("/", pos);
    if (segEnd === -1 || segEnd > end) segEnd = end;
    const length = segEnd - pos;
    for (let i = 0; i < node.statics.length; i++) {
      const [name, child] = node.statics[i]!;
      if (name.length === length && url.startsWith(name, pos)) {
        const found = walk(child, url, segEnd, end);
        if (found !== undefined) return found;
      }
    }
    if (node.dynamic) {
      const found = walk(node.dynamic, url, segEnd, end);
      if (found !== undefined) return found;
    }
    return node.catchAll ?? node.optionalCatchAll;
  };

  return (target) => {
    let end = target.indexOf("?");
    if (end === -1) end = target.length;
    const escape = target.indexOf("%");
    if (escape !== -1 && escape < end) return matchRoute(table, target.slice(0, end))?.pattern;
    return walk(root, target, 0, end);
  };
}
