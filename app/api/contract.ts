// `/api` itself answers like every unknown API path.
import { route, type HttpMethod } from "@/lib/http/contract";

const notFound = (method: HttpMethod) =>
  route({ method, path: "/api", auth: "public", responses: {}, errors: ["not_found"] });

export const GET = notFound("GET");
export const POST = notFound("POST");
export const PUT = notFound("PUT");
export const PATCH = notFound("PATCH");
export const DELETE = notFound("DELETE");
