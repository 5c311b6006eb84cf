// Auth.js endpoints (session, CSRF, SSO redirects and callbacks).
import { handlers } from "@/lib/http/auth";

export const { GET, POST } = handlers;
