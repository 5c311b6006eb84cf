// `/api` itself (no segment after it) answers like every unknown API path: 404 in the envelope.
import { notFoundRoute } from "@/lib/http/handler";
import * as contract from "./contract";

export const GET = notFoundRoute(contract.GET);
export const POST = notFoundRoute(contract.POST);
export const PUT = notFoundRoute(contract.PUT);
export const PATCH = notFoundRoute(contract.PATCH);
export const DELETE = notFoundRoute(contract.DELETE);
