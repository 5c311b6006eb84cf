// Unknown API paths answer in the error envelope rather than with Next's HTML 404 page.
import { notFoundRoute } from "@/lib/http/handler";
import * as contract from "./contract";

export const GET = notFoundRoute(contract.GET);
export const POST = notFoundRoute(contract.POST);
export const PUT = notFoundRoute(contract.PUT);
export const PATCH = notFoundRoute(contract.PATCH);
export const DELETE = notFoundRoute(contract.DELETE);
