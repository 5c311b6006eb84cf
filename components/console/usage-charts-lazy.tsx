"use client";
// The usage charts, loaded after the page: Recharts is about 70 KB compressed, more than the whole
// first-load budget of a page leaves (e2e/ui/pages.spec.ts), and the charts come below the fold.
import dynamic from "next/dynamic";
import { Skeleton } from "../ui/states";

export const UsageCharts = dynamic(() => import("./usage-charts").then((m) => m.UsageCharts), {
  ssr: false,
  loading: () => <Skeleton className="mt-6 h-64" />,
});
