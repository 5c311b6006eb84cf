// The typed client of the API: openapi-fetch over the types generated from the OpenAPI document
// (lib/client/schema.ts, `npm run gen:client`). Paths, parameters, bodies and answers are checked
// by the compiler against the document the server serves at /api/openapi.json.
//
//   const api = createClient({ baseUrl: "http://localhost:3000", accessKey: "ak_..." });
//   const { data, error } = await api.POST("/api/agents/webhook/{agent_id}", {
//     params: { path: { agent_id } },
//     body: { message: "hello" },
//   });
import createFetchClient, { type Client } from "openapi-fetch";
import type { components, operations, paths } from "./schema";

export type { components, operations, paths };
/** The document's named schemas: `Schemas["RunRecord"]`, `Schemas["ErrorEnvelope"]`, ... */
export type Schemas = components["schemas"];
export type ApiClient = Client<paths>;

export interface ClientOptions {
  /** The service's address, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** An Access Key (`ak_...`): the public API (`/api/agents/...`, `/api/workflows/...`). */
  accessKey?: string;
  /** A user token (`ut_...`): the management API (`/api/v1/...`). */
  userToken?: string;
  /** Another fetch (tests, proxies). */
  fetch?: typeof globalThis.fetch;
}

/** A client of the whole API; each request carries the credential its API takes. */
export function createClient(opts: ClientOptions): ApiClient {
  const client = createFetchClient<paths>({ baseUrl: opts.baseUrl.replace(/\/+$/, ""), fetch: opts.fetch });
  client.use({
    onRequest({ request, schemaPath }) {
      const credential = schemaPath.startsWith("/api/v1/") ? opts.userToken : opts.accessKey;
      if (credential && !request.headers.has("authorization")) {
        request.headers.set("authorization", `Bearer ${credential}`);
      }
      return request;
    },
  });
  return client;
}

/**
 * A multipart upload (docs/api.md, Upload). openapi-fetch sends JSON unless told otherwise: the bodySerializer
 * turns the typed body into FormData, whose boundary fetch writes into the Content-Type itself.
 */
export function uploadFile(client: ApiClient, agentId: string, file: Blob, filename: string) {
  return client.POST("/api/agents/{agent_id}/upload", {
    params: { path: { agent_id: agentId } },
    body: { file },
    bodySerializer: (body) => {
      const form = new FormData();
      form.append("file", body.file, filename);
      return form;
    },
  });
}
