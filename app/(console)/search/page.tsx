import type { Metadata } from "next";
import { requireConsolePage } from "@/app/(console)/session.server";
import { SearchView } from "./search-view";

export const metadata: Metadata = { title: "Search" };

export default async function SearchPage({ searchParams }: { searchParams: Promise<{ q?: string | string[] }> }) {
  const { q } = await searchParams;
  const text = typeof q === "string" ? q : "";
  await requireConsolePage(`/search?q=${encodeURIComponent(text)}`);
  return <SearchView q={text} />;
}
