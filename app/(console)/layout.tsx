import type { ReactNode } from "react";
import { Providers } from "@/components/console/providers";
import { Shell } from "@/components/console/shell";
import { UrlView } from "@/components/ui/states";
import { currentConsoleUser } from "@/lib/http/console";
import { consoleMe } from "@/app/(console)/session.server";

// Every page below checks the session itself (requireConsolePage) and redirects to /login.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await currentConsoleUser();
  if (!user) return children;
  return (
    <Providers>
      <Shell me={consoleMe(user)}>
        {/* The list pages read their filters and page from the URL (useSearchParams). */}
        <UrlView label="Loading the page">{children}</UrlView>
      </Shell>
    </Providers>
  );
}
