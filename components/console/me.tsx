"use client";
// The signed-in user as the layout saw it on the server, for components that adapt to the role.
import { createContext, useContext, type ReactNode } from "react";
import type { ConsoleMe } from "@/lib/orgs/schemas";
import { setConsoleOrganization } from "./api";

const MeContext = createContext<ConsoleMe | null>(null);

export function MeProvider({ me, children }: { me: ConsoleMe; children: ReactNode }) {
  // The organization API's paths name it (org() of ./api.ts); a switch reloads the page.
  setConsoleOrganization(me.organization.organization_id);
  return <MeContext.Provider value={me}>{children}</MeContext.Provider>;
}

export function useMe(): ConsoleMe {
  const me = useContext(MeContext);
  if (!me) throw new Error("useMe outside the console layout");
  return me;
}

export const useIsAdmin = () => useMe().role === "admin";
