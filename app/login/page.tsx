import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { oidcConfigured, signIn } from "@/lib/http/auth";
import { currentConsoleUser } from "@/lib/http/console";
import { baseUrlFrom } from "@/lib/http/base-url";
import { safeNext } from "@/lib/http/safe-next";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const params = await searchParams;
  const requestHeaders = await headers();
  const next = safeNext(
    params.next,
    baseUrlFrom((name) => requestHeaders.get(name)),
  );
  if (await currentConsoleUser()) redirect(next);
  const sso = oidcConfigured();
  async function ssoSignIn() {
    "use server";
    await signIn("oidc", { redirectTo: next });
  }
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <h1 className="text-center text-xl font-semibold text-zinc-900">Agent Webhook Service</h1>
        <p className="mt-1 text-center text-sm text-zinc-600">Sign in to the console</p>
        <div className="mt-6 rounded-xl bg-white p-6 shadow-sm ring-1 ring-zinc-200">
          <LoginForm next={next} ssoError={params.error === "AccessDenied" || params.error === "OAuthCallbackError"} />
          {sso && (
            <form action={ssoSignIn} className="mt-4 border-t border-zinc-200 pt-4">
              <button
                type="submit"
                className="inline-flex h-10 w-full items-center justify-center rounded-md bg-white text-sm font-medium text-zinc-800 ring-1 ring-zinc-300 ring-inset hover:bg-zinc-50"
              >
                Sign in with SSO
              </button>
            </form>
          )}
        </div>
      </div>
    </main>
  );
}
