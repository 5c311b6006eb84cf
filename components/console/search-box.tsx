"use client";
// The header's search box (docs/console.md, Search): `/` focuses it (not while typing in a field),
// Enter opens /search?q=...; and the link to an end user's case timeline that search results, the
// session page and the run page show beside a user id.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { SEARCH_MAX_CHARS } from "@/lib/search/schemas";
import { Mono } from "../ui/misc";

/** Typing in one of these is not a shortcut. */
const typing = (el: Element | null) =>
  el instanceof HTMLElement && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));

export function SearchBox() {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [q, setQ] = useState("");
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "/" || e.metaKey || e.ctrlKey || e.altKey || typing(document.activeElement)) return;
      e.preventDefault();
      input.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return (
    <form
      role="search"
      className="order-last w-full sm:order-none sm:w-64 lg:w-80"
      onSubmit={(e) => {
        e.preventDefault();
        const text = q.trim();
        if (text) router.push(`/search?q=${encodeURIComponent(text)}`);
      }}
    >
      <label htmlFor="console-search" className="sr-only">
        Search ids, users, field:value or words (press / to focus)
      </label>
      <input
        id="console-search"
        ref={input}
        type="search"
        value={q}
        maxLength={SEARCH_MAX_CHARS}
        onChange={(e) => setQ(e.target.value)}
        placeholder="Search  /"
        autoComplete="off"
        className="h-9 w-full min-w-0 rounded-md border-0 bg-zinc-50 px-3 text-sm ring-1 ring-zinc-300 ring-inset placeholder:text-zinc-500 focus:bg-white focus:ring-2 focus:ring-indigo-600"
      />
    </form>
  );
}

export const userTimelineHref = (userId: string) => `/users/${encodeURIComponent(userId)}`;

/** The end user a run's inputs name (`user_id`), as the case timeline finds its runs. */
export function endUserOf(inputs: unknown): string | undefined {
  const id = inputs && typeof inputs === "object" ? (inputs as { user_id?: unknown }).user_id : undefined;
  return typeof id === "string" && id ? id : undefined;
}

/** An end user's id with the link to their case timeline. */
export function UserLink({ userId }: { userId: string }) {
  return (
    <Link
      href={userTimelineHref(userId)}
      className="text-indigo-700 hover:underline"
      title="Everything about this end user, newest first"
    >
      <Mono>{userId}</Mono> <span className="text-xs">(timeline)</span>
    </Link>
  );
}
