// Auth.js endpoints (session, CSRF, SSO redirects and callbacks); inputs Auth.js would answer with a
// 500 are refused first (lib/http/auth.ts). Each method takes its contract.
import { authJsRoute, handlers } from "@/lib/http/auth";
import * as contract from "./contract";

export const GET = authJsRoute(contract.GET, handlers.GET);
export const POST = authJsRoute(contract.POST, handlers.POST);
