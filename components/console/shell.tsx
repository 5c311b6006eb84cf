"use client";
// The console frame: navigation (a sidebar on wide screens, a menu on phones), the organization
// switcher, and the user's menu (sign out, sign out everywhere).
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState, type ReactNode } from "react";
import type { ConsoleMe } from "@/lib/orgs/schemas";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { cn } from "../ui/cn";
import { SkipLink } from "../ui/misc";
import { signOutAndLeave } from "./api";
import { MeProvider } from "./me";
import { request } from "./use-api";
import { SearchBox } from "./search-box";

const NAV: { href: string; label: string; admin?: boolean }[] = [
  { href: "/", label: "Overview" },
  { href: "/agents", label: "Agents" },
  { href: "/sessions", label: "Sessions" },
  { href: "/runs", label: "Runs" },
  { href: "/reviews", label: "Reviews" },
  { href: "/uploads", label: "Uploads" },
  { href: "/keys", label: "Access Keys" },
  { href: "/webhooks", label: "Webhooks" },
  { href: "/alerts", label: "Alerts" },
  { href: "/settings/secrets", label: "Secrets", admin: true },
  { href: "/settings/retention", label: "Retention" },
  { href: "/members", label: "Members", admin: true },
  { href: "/audit", label: "Audit log", admin: true },
  { href: "/exports", label: "Exports" },
  { href: "/docs/api", label: "API reference" },
];

const isActive = (pathname: string, href: string) =>
  href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);

function NavLinks({ me, onNavigate }: { me: ConsoleMe; onNavigate?: () => void }) {
  const pathname = usePathname();
  return (
    <ul className="space-y-0.5">
      {NAV.filter((n) => !n.admin || me.role === "admin").map((n) => {
        const active = isActive(pathname, n.href);
        return (
          <li key={n.href}>
            <Link
              href={n.href}
              onClick={onNavigate}
              aria-current={active ? "page" : undefined}
              className={cn(
                "block rounded-md px-3 py-2 text-sm font-medium",
                active ? "bg-indigo-50 text-indigo-800" : "text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900",
              )}
            >
              {n.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

function OrgSwitcher({ me }: { me: ConsoleMe }) {
  const [busy, setBusy] = useState(false);
  if (me.organizations.length < 2) {
    return (
      <span data-testid="header-organization" className="block truncate text-sm font-medium text-zinc-800">
        {me.organization.name}
      </span>
    );
  }
  return (
    <label data-testid="header-organization" className="flex min-w-0 items-center gap-2 text-sm">
      <span className="sr-only">Organization</span>
      <select
        className="h-9 w-full max-w-[11rem] min-w-0 truncate rounded-md border-0 bg-white py-1 pr-8 pl-2 text-sm ring-1 ring-zinc-300 ring-inset focus:ring-2 focus:ring-indigo-600"
        value={me.organization.organization_id}
        disabled={busy}
        onChange={async (e) => {
          setBusy(true);
          try {
            await request("POST /api/console/org", { body: { organization_id: e.target.value } });
            window.location.assign("/");
          } finally {
            setBusy(false);
          }
        }}
      >
        {me.organizations.map((o) => (
          <option key={o.organization_id} value={o.organization_id}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}

function UserMenu({ me }: { me: ConsoleMe }) {
  const [open, setOpen] = useState(false);
  const signOut = (everywhere: boolean) => signOutAndLeave(everywhere ? "/auth/sign-out-everywhere" : "/auth/sign-out");
  return (
    <div className="relative min-w-0 shrink">
      <Button
        variant="ghost"
        size="sm"
        className="max-w-full"
        aria-expanded={open}
        aria-haspopup="menu"
        onClick={() => setOpen(!open)}
      >
        {/* A block, so that a long email is cut short rather than run under the organization's name. */}
        <span className="block max-w-[8rem] truncate sm:max-w-[10rem]">{me.email}</span>
        <span aria-hidden>▾</span>
      </Button>
      {open && (
        <div
          role="menu"
          className="absolute right-0 z-30 mt-1 w-60 rounded-lg bg-white p-1 shadow-lg ring-1 ring-zinc-200"
          onKeyDown={(e) => e.key === "Escape" && setOpen(false)}
        >
          <p className="px-3 py-2 text-xs text-zinc-600">
            Signed in as <span className="font-medium break-all text-zinc-900">{me.email}</span>
            <br />
            Role: <Badge tone="indigo">{me.role}</Badge>
          </p>
          <button
            role="menuitem"
            className="block w-full rounded-md px-3 py-2 text-left text-sm hover:bg-zinc-100"
            onClick={() => signOut(false)}
          >
            Sign out
          </button>
          <button
            role="menuitem"
            className="block w-full rounded-md px-3 py-2 text-left text-sm hover:bg-zinc-100"
            onClick={() => signOut(true)}
          >
            Sign out everywhere
          </button>
        </div>
      )}
    </div>
  );
}

export function Shell({ me, children }: { me: ConsoleMe; children: ReactNode }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const pathname = usePathname();
  useEffect(() => setMenuOpen(false), [pathname]);
  return (
    <MeProvider me={me}>
      <SkipLink />
      <header className="sticky top-0 z-20 border-b border-zinc-200 bg-white">
        <div className="flex min-h-14 flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2 sm:h-14 sm:flex-nowrap sm:py-0">
          <Button
            variant="ghost"
            size="sm"
            className="md:hidden"
            aria-expanded={menuOpen}
            aria-controls="mobile-nav"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            Menu
          </Button>
          <Link href="/" className="hidden text-sm font-semibold whitespace-nowrap text-zinc-900 sm:block">
            Agent Webhook Service
          </Link>
          <span aria-hidden className="hidden text-zinc-300 sm:block">
            /
          </span>
          <div className="min-w-0 flex-1">
            <OrgSwitcher me={me} />
          </div>
          <SearchBox />
          <UserMenu me={me} />
        </div>
        {menuOpen && (
          <nav id="mobile-nav" aria-label="Main menu" className="border-t border-zinc-200 px-2 py-2 md:hidden">
            <NavLinks me={me} onNavigate={() => setMenuOpen(false)} />
          </nav>
        )}
      </header>
      <div className="mx-auto flex min-h-[calc(100vh-3.5rem)] max-w-screen-2xl">
        <nav aria-label="Main" className="hidden w-56 shrink-0 border-r border-zinc-200 bg-white px-2 py-4 md:block">
          <div className="sticky top-18">
            <NavLinks me={me} />
          </div>
        </nav>
        <main id="main" className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-8">
          {children}
        </main>
      </div>
    </MeProvider>
  );
}
