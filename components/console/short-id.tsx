// An id as the console shows it in tight places: shortened by shortId (prefix and last characters),
// the full id on hover. Copy controls copy the full id.
import { cn } from "../ui/cn";
import { shortId } from "./format";

export function ShortId({ id, className }: { id: string; className?: string }) {
  return (
    <span title={id} className={cn("font-mono", className ?? "text-xs")}>
      {shortId(id)}
    </span>
  );
}
