// Auth.js endpoints (session, CSRF, SSO redirects and callbacks); inputs Auth.js would answer with a
// 500 are refused first (lib/http/auth.ts).
import { authJsRoute, handlers } from "@/lib/http/auth";

export const { GET, POST } = { GET: authJsRoute(handlers.GET), POST: authJsRoute(handlers.POST) };
