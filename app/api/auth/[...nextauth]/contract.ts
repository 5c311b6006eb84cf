// Auth.js (the console's sign-in machinery): its own endpoints (session, CSRF token, providers,
// SSO redirects and callbacks) answer JSON or redirects of Auth.js's making; lib/http/auth.ts
// refuses first, in the envelope, what Auth.js would answer with a 500. Private: not in the OpenAPI
// document.
import { ANSWER, route, type HttpMethod } from "@/lib/http/contract";

const authJs = (method: HttpMethod) =>
  route({
    method,
    path: "/api/auth/[...nextauth]",
    auth: "consoleOpen",
    responses: { 200: ANSWER.external, 302: ANSWER.redirect },
    // A callbackUrl (query or cookie) that is not an http(s) URL or a path (lib/http/auth.ts authJsRoute).
    errors: ["invalid_request"],
  });

export const GET = authJs("GET");
export const POST = authJs("POST");
