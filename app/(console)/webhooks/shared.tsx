// What the Webhooks page and a delivery's page share: the console's shapes of signing secrets and
// deliveries (the types of lib/callbacks/schemas.ts) and small display helpers.

// Types only: the zod schemas stay out of the browser's bundle.
export type { DeliveryAttempt, DeliveryDetail, RotatedSecret } from "@/lib/callbacks/schemas";

export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;

/** A short identifier in code type that wraps only where it may (unlike Mono, which breaks anywhere). */
export const Code = ({ children }: { children: string }) => (
  <code className="font-mono text-xs whitespace-nowrap">{children}</code>
);

/** An HTTP status as a small badge: green for 2xx, red otherwise; "—" when no answer came. */
export function HttpStatus({ code }: { code: number | null }) {
  if (code === null) return <span className="text-zinc-600">—</span>;
  return (
    <span
      className={
        code >= 200 && code < 300
          ? "font-mono text-xs font-medium text-emerald-800"
          : "font-mono text-xs font-medium text-red-800"
      }
    >
      {code}
    </span>
  );
}

/** The JSON body pretty-printed when it parses; as sent otherwise. */
export function prettyJson(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
