// The little Markdown the OpenAPI document's descriptions use (lib/openapi), rendered as React
// elements (never as HTML): paragraphs, `- ` lists, `## ` headings, tables, **bold** and `code`.
import type { ReactNode } from "react";
import { TBody, Td, Th, THead, Tr } from "@/components/ui/table";

/**
 * The UI kit's table card, made a focusable region: on a phone the table scrolls sideways, and a
 * keyboard user must be able to reach and scroll it.
 */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="overflow-x-auto rounded-lg bg-white ring-1 ring-zinc-200"
    >
      <table aria-label={label} className="min-w-full divide-y divide-zinc-200 text-sm">
        {children}
      </table>
    </div>
  );
}

/** `code` and **bold** inside a line. */
export function Inline({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    parts.push(
      m[1] !== undefined ? (
        <code
          key={m.index}
          className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.85em] break-words text-zinc-800"
        >
          {m[1]}
        </code>
      ) : (
        <strong key={m.index} className="font-semibold text-zinc-900">
          {m[2]}
        </strong>
      ),
    );
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts}</>;
}

const cells = (row: string) =>
  row
    .replace(/^\||\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, "|"));

/**
 * A row's anchor in a table with a `code` column holding one code: `error-<code>`, what every error
 * answer's `doc_url` points at (lib/errors.ts errorDocUrl).
 */
function anchorOf(head: string[], row: string[]): string | undefined {
  const at = head.indexOf("code");
  const code = at < 0 ? undefined : /^`([a-z_]+)`$/.exec(row[at] ?? "")?.[1];
  return code ? `error-${code}` : undefined;
}

/** Blocks separated by blank lines; a block of `- ` lines is a list, of `|` lines a table. */
export function Markdown({ text, headingLevel = 2 }: { text: string; headingLevel?: 2 | 3 }) {
  const blocks = text.trim().split(/\n\s*\n/);
  return (
    <div className="space-y-3 text-sm leading-6 text-zinc-700">
      {blocks.map((block, i) => {
        const lines = block.split("\n");
        if (block.startsWith("## ")) {
          const Heading = headingLevel === 2 ? "h2" : "h3";
          return (
            <Heading key={i} className="pt-2 text-base font-semibold text-zinc-900">
              {block.slice(3)}
            </Heading>
          );
        }
        if (lines.every((l) => l.startsWith("|"))) {
          const [head, , ...rows] = lines;
          return (
            <ScrollTable key={i} label={`Table: ${cells(head!).join(", ")}`}>
              <THead>
                <Tr>
                  {cells(head!).map((c) => (
                    <Th key={c}>{c}</Th>
                  ))}
                </Tr>
              </THead>
              <TBody>
                {rows.map((row, r) => (
                  <Tr key={r} id={anchorOf(cells(head!), cells(row))}>
                    {cells(row).map((c, k) => (
                      <Td key={k} className={k < 2 ? "whitespace-nowrap" : undefined}>
                        <Inline text={c} />
                      </Td>
                    ))}
                  </Tr>
                ))}
              </TBody>
            </ScrollTable>
          );
        }
        if (lines.every((l) => l.startsWith("- "))) {
          return (
            <ul key={i} className="list-disc space-y-1 pl-5">
              {lines.map((l, k) => (
                <li key={k}>
                  <Inline text={l.slice(2)} />
                </li>
              ))}
            </ul>
          );
        }
        return (
          <p key={i}>
            <Inline text={lines.join(" ")} />
          </p>
        );
      })}
    </div>
  );
}
