// /docs/api: the API reference, readable signed out. Signed in, it sits in the console's frame
// (the layout's Shell); signed out, in a plain frame of its own with a way to sign in.
import type { Metadata } from "next";
import Link from "next/link";
import { CONTRACTS } from "@/app/api/contracts";
import { currentConsoleUser } from "@/lib/http/console";
import { openApiDocument } from "@/lib/openapi/document";
import { SkipLink } from "@/components/ui/misc";
import { ApiReference } from "./reference";

export const metadata: Metadata = { title: "API reference" };

export default async function ApiReferencePage() {
  const reference = <ApiReference doc={openApiDocument(CONTRACTS).document} />;
  if (await currentConsoleUser()) return reference;
  return (
    <>
      <SkipLink />
      <header className="sticky top-0 z-20 border-b border-zinc-200 bg-white">
        <div className="mx-auto flex h-14 max-w-screen-2xl items-center justify-between gap-3 px-4">
          <Link href="/docs/api" className="text-sm font-semibold whitespace-nowrap text-zinc-900">
            Agent Webhook Service
          </Link>
          <Link
            href="/login?next=%2Fdocs%2Fapi"
            className="inline-flex h-9 items-center rounded-md bg-white px-3 text-sm font-medium text-zinc-800 ring-1 ring-zinc-300 ring-inset hover:bg-zinc-50"
          >
            Sign in
          </Link>
        </div>
      </header>
      <main id="main" className="px-4 py-6 sm:px-6 lg:px-8">
        {reference}
      </main>
    </>
  );
}
