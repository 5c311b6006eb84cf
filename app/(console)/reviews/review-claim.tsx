"use client";
// The claim of the item a review dialog opens: claimed on opening (not taking over), released by
// nothing but time (docs/console.md, Reviews); what the member sees of it: claiming, holding it and
// for how long, someone else's claim with Take over, or the error.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { ConsoleApiError } from "@/components/console/api";
import { timeLeft } from "@/components/console/format";
import { apiKey, request } from "@/components/console/use-api";
import { Button } from "@/components/ui/button";

/** Claims the item `openId` each time it opens (a new claim, not taking over). */
export function useReviewClaim(openId: string | null) {
  const qc = useQueryClient();
  const claim = useMutation({
    mutationFn: (v: { id: string; takeOver: boolean }) =>
      request("POST /api/v1/organizations/[org_id]/reviews/[exception_id]/claim", {
        params: { exception_id: v.id },
        body: { take_over: v.takeOver },
      }),
    onSettled: () => qc.invalidateQueries({ queryKey: apiKey("GET /api/v1/organizations/[org_id]/reviews") }),
  });
  const claimItem = claim.mutate;
  const resetClaim = claim.reset;
  useEffect(() => {
    if (!openId) return;
    resetClaim();
    claimItem({ id: openId, takeOver: false });
  }, [openId, claimItem, resetClaim]);
  return claim;
}

export type ReviewClaim = ReturnType<typeof useReviewClaim>;

export function ClaimStatus({ claim, exceptionId }: { claim: ReviewClaim; exceptionId: string }) {
  const claimError = claim.error instanceof ConsoleApiError ? claim.error : null;
  const byOther = claimError?.code === "approval_claimed";
  return (
    <>
      {claim.isPending && <p className="mb-3 text-sm text-zinc-700">Claiming this item for you…</p>}
      {claim.isSuccess && (
        <p className="mb-3 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900" role="status">
          You are reviewing this item ({timeLeft(claim.data.claimed_until ?? new Date().toISOString())}). Others see it
          as being reviewed by you.
        </p>
      )}
      {byOther && (
        <div
          className="mb-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200"
          role="alert"
        >
          <p>
            Being reviewed by {String(claimError.details?.claimed_by ?? "another member")}. You can decide it only if
            you take it over; they will no longer be able to decide it.
          </p>
          <Button
            size="sm"
            className="mt-2"
            disabled={claim.isPending}
            onClick={() => claim.mutate({ id: exceptionId, takeOver: true })}
          >
            Take over
          </Button>
        </div>
      )}
      {claimError && !byOther && (
        <p className="mb-3 text-sm text-red-700" role="alert">
          {claimError.message}
        </p>
      )}
    </>
  );
}
