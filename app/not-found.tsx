// The answer to an address the console has no page for (docs/console.md, Pages): the console's own
// "Page not found" with the way home, inside the console's header and navigation for a signed-in
// member, on its own for a visitor (whose way is the sign-in page).
import type { Metadata } from "next";
import Link from "next/link";
import { Providers } from "@/components/console/providers";
import { Shell } from "@/components/console/shell";
import { buttonClass } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/misc";
import { EmptyState } from "@/components/ui/states";
import { currentConsoleUser } from "@/lib/http/console";
import { consoleMe } from "@/app/(console)/session.server";

export const metadata: Metadata = { title: "Page not found" };

function NotFoundCard({ home }: { home: { href: string; label: string } }) {
  return (
    <>
      <PageHeader title="Page not found" />
      <EmptyState
        title="There is no page at this address"
        action={
          <Link href={home.href} className={buttonClass("primary")}>
            {home.label}
          </Link>
        }
      >
        The link may be mistyped or out of date. The navigation and the search box lead to every page of the console.
      </EmptyState>
    </>
  );
}

export default async function NotFound() {
  const user = await currentConsoleUser();
  if (!user) {
    return (
      <main className="mx-auto max-w-xl px-4 py-12">
        <NotFoundCard home={{ href: "/login", label: "Sign in" }} />
      </main>
    );
  }
  return (
    <Providers>
      <Shell me={consoleMe(user)}>
        <NotFoundCard home={{ href: "/", label: "Go to the overview" }} />
      </Shell>
    </Providers>
  );
}
