// Resumable uploads, tus 1.0 (creation, creation-with-upload, termination, expiration) with
// @tus/server, at /api/agents/{agent_id}/upload/tus and /api/agents/{agent_id}/upload/tus/{upload_id}.
// API clients authenticate with an Access Key (agents:invoke); the dashboard's Uppy with the
// signed-in session (same-origin). An upload belongs to the agent and organization that created it:
// any other caller gets 404 before tus sees the request. A finished upload is an ordinary fi_ file:
// the last PATCH and every later HEAD carry `Upload-File-Id`, and GET answers the upload's file object.
import { Metadata, TUS_RESUMABLE } from "@tus/utils";
import { MemoryLocker, Server } from "@tus/server";
import type { Lock, Locker, RequestRelease } from "@tus/utils";
import { agentForRequest, assertNotArchived, type AgentRow } from "@/lib/agents/service";
import { requirePermission, verifyAccessKey } from "@/lib/auth/access-keys";
import { bearerToken } from "@/lib/auth/secrets";
import { database } from "@/lib/db";
import { advisoryLock, type HeldLock } from "@/lib/db/advisory-lock";
import { env } from "@/lib/env";
import { ApiError, isApiError } from "@/lib/errors";
import {
  discardUpload,
  finishUpload,
  forgetUpload,
  loadUpload,
  newUploadId,
  recordUpload,
  uploadedFile,
} from "@/lib/files/resumable";
import type { Upload } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { trackUpload } from "@/lib/metrics";
import { tusStore } from "@/lib/storage";
import { currentConsoleUser, requireSameOrigin } from "@/lib/http/console";
import { expectAuth, type RouteContract } from "@/lib/http/contract";
import { wrapRoute, type AnswerExtras, type BaseCtx, type RouteHandler } from "@/lib/http/handler";
import { limitAccessKey } from "@/lib/http/rate-limit";
import { errorBody } from "@/lib/http/respond";
import { allowedMethods, METHODS_BY_DEPTH } from "@/lib/http/routes";
import { processSlot } from "@/lib/process-state";

const FILE_ID_HEADER = "Upload-File-Id";
const TUS_PATTERN = "/api/agents/[agent_id]/upload/tus/[[...path]]";
const TUS_CHUNK_TYPE = "application/offset+octet-stream";

/** `type/subtype` of a Content-Type value, lowercased, without parameters. */
const mediaTypeOf = (value: string | null) => value?.split(";")[0]!.trim().toLowerCase() ?? "";

/** What the route established about a request, for tus's hooks (they see the same Request). */
interface TusContext {
  organizationId: string;
  agentId: string;
  requestId: string;
  uploadId: string | undefined;
  /** The upload a POST recorded (onUploadCreate), so that a creation that failed after it is undone. */
  created?: string;
}
const contexts = new WeakMap<Request, TusContext>();

/** tus hooks answer errors as {status_code, body}; ours keep the service's JSON envelope. */
function tusError(err: ApiError, requestId: string) {
  return { status_code: err.status, body: JSON.stringify(errorBody(err, requestId)) };
}

/** tus writes a hook's error body as text/plain: ours is the JSON envelope, and says so. */
async function withEnvelopeType(res: Response): Promise<Response> {
  if (res.status < 400 || !res.headers.get("content-type")?.startsWith("text/plain")) return res;
  const text = await res.text();
  const headers = new Headers(res.headers);
  if (text.startsWith('{"error":')) headers.set("content-type", "application/json; charset=utf-8");
  return new Response(text, { status: res.status, headers });
}

/**
 * One PATCH (or HEAD, DELETE) of an upload at a time. In-process, tus's own locker (it also lets a
 * newer request take over from a stalled one); on PostgreSQL, where several server processes may
 * serve the same upload, also an advisory lock in the database.
 */
class UploadLocker implements Locker {
  private readonly local = new MemoryLocker();
  constructor(private readonly connectionString?: string) {}
  newLock(id: string): Lock {
    const local = this.local.newLock(id);
    const url = this.connectionString;
    let held: HeldLock | undefined;
    return {
      lock: async (signal: AbortSignal, requestRelease: RequestRelease) => {
        await local.lock(signal, requestRelease);
        if (!url) return;
        const timeout = AbortSignal.any([signal, AbortSignal.timeout(30_000)]);
        try {
          held = await advisoryLock(url, `tus:${id}`, timeout);
        } catch (err) {
          await local.unlock();
          throw err;
        }
      },
      unlock: async () => {
        await held?.release();
        held = undefined;
        await local.unlock();
      },
    };
  }
}

const current = processSlot<{ store: ReturnType<typeof tusStore>; server: Promise<Server> }>("tus");

function tus(): Promise<Server> {
  const store = tusStore();
  let tus = current.get();
  if (tus?.store !== store) current.set((tus = { store, server: createServer(store) }));
  return tus.server;
}

async function createServer(store: ReturnType<typeof tusStore>): Promise<Server> {
  const db = await database();
  return new Server({
    datastore: store,
    locker: new UploadLocker(db.kind === "postgres" ? db.connectionString : undefined),
    // Only a marker: upload URLs are made by generateUrl, and ids are the last path segment.
    path: "/api/agents/upload/tus",
    maxSize: env().UPLOAD_MAX_BYTES,
    namingFunction: () => newUploadId(),
    // The upload the route authorized (from the path), never tus's own reading of the URL: that
    // takes the last segment of the whole URL, query string included.
    getFileIdFromRequest: (req) => contexts.get(req as unknown as Request)?.uploadId,
    // Relative, so that clients resolve it against the address they used.
    generateUrl: (req, { id }) => `/api/agents/${contexts.get(req as unknown as Request)!.agentId}/upload/tus/${id}`,
    disableTerminationForFinishedUploads: true,
    exposedHeaders: [FILE_ID_HEADER],
    onUploadCreate: async (req, upload) => {
      const context = contexts.get(req as unknown as Request)!;
      const { organizationId, agentId, requestId } = context;
      try {
        context.created = upload.id;
        await recordUpload({
          uploadId: upload.id,
          organizationId,
          agentId,
          size: upload.size,
          metadata: upload.metadata,
        });
      } catch (e) {
        if (isApiError(e)) throw tusError(e, requestId);
        throw e;
      }
      return {};
    },
    onUploadFinish: async (req, upload) => {
      const { organizationId, agentId } = contexts.get(req as unknown as Request)!;
      const fileId = await finishUpload(await loadUpload({ organizationId, agentId, uploadId: upload.id }));
      return fileId ? { headers: { [FILE_ID_HEADER]: fileId } } : {};
    },
    onResponseError: (_req, err) => {
      if (err instanceof Error) log.error({ err: { name: err.name, message: err.message } }, "tus error");
      return undefined;
    },
  });
}

/** A finished upload answers HEAD itself: tus would report it gone once its expiry passed. */
function finishedHead(upload: Upload, fileId: string) {
  const size = String(upload.sizeBytes);
  return new Response(null, {
    status: 200,
    headers: {
      "Tus-Resumable": "1.0.0",
      "Cache-Control": "no-store",
      "Upload-Offset": size,
      "Upload-Length": size,
      "Upload-Metadata": Metadata.stringify({ filename: upload.filename, filetype: upload.contentType }),
      [FILE_ID_HEADER]: fileId,
      "Access-Control-Expose-Headers": `Upload-Offset, Upload-Length, Upload-Metadata, ${FILE_ID_HEADER}`,
    },
  });
}

/** tus 1.0: a request without the version this server speaks is refused, naming the versions it does. */
function versionRequired() {
  return new Response(`Tus-Resumable: ${TUS_RESUMABLE} required\n`, {
    status: 412,
    headers: { "Tus-Resumable": TUS_RESUMABLE, "Tus-Version": TUS_RESUMABLE, "Content-Type": "text/plain" },
  });
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

async function authenticate(req: Request, rawParams: Record<string, unknown>, extras: AnswerExtras) {
  const agentId = String(rawParams.agent_id ?? "");
  let organizationId: string;
  let principal: string;
  let scope: string[] = [];
  if (req.headers.get("authorization") !== null) {
    const key = await verifyAccessKey(bearerToken(req.headers.get("authorization")));
    extras.principal = key.keyId;
    // The key's rate limit, as on every public route; a PATCH (bytes of an upload already created
    // and counted) is not counted, so that a client sending small chunks is not cut off mid-file.
    if (req.method !== "PATCH") await limitAccessKey(key, extras.headers);
    requirePermission(key, "agents:invoke");
    organizationId = key.organizationId;
    principal = key.keyId;
    scope = key.agentIds;
  } else {
    // The dashboard's Uppy: the signed-in session, from the dashboard's own pages only. Without
    // either credential, 401 (an API client that forgot its key sends no Origin).
    const user = await currentConsoleUser();
    if (!user) throw new ApiError("unauthorized", "Missing or invalid Access Key.");
    if (!SAFE_METHODS.has(req.method)) requireSameOrigin(req);
    organizationId = user.organizationId;
    principal = user.userId;
  }
  const agent: AgentRow = await agentForRequest(organizationId, agentId, scope);
  return { principal, organizationId, agent };
}

/**
 * The handler of one method of the tus route, taking its contract (app/api/agents/[agent_id]/
 * upload/tus/[[...path]]/contract.ts): `public` is OPTIONS, open as the protocol wants; `accessKey`
 * is an Access Key, or the console's session from its own pages. Every method carries or awaits an
 * upload's bytes, so the contract must allow the long timeout (UPLOAD_TIMEOUT_MS, server.ts).
 */
export function tusRoute(contract: RouteContract): RouteHandler {
  const where = `${contract.method} ${contract.path}`;
  if (contract.timeout !== "long") throw new Error(`${where}: a tus route needs timeout "long"`);
  expectAuth(contract, contract.method === "OPTIONS" ? "public" : "accessKey");
  const auth =
    contract.auth === "public"
      ? async () => ({})
      : async (req: Request, rawParams: Record<string, unknown>, extras: AnswerExtras) => {
          refuseMethodNotServedHere(req.method, rawParams, extras);
          return authenticate(req, rawParams, extras);
        };
  return (req, ctx) => wrapRoute(req, ctx, contract, auth, serve);
}

/**
 * The collection URL creates, an upload's URL is read, continued and deleted: any other method is
 * 405 with the `Allow` of that URL, before credentials are looked at (as the server's own 405s, which
 * say the same: lib/http/routes.ts). A path below an upload's URL is left to `serve` (404).
 */
function refuseMethodNotServedHere(method: string, rawParams: Record<string, unknown>, extras: AnswerExtras) {
  const depth = Array.isArray(rawParams.path) ? rawParams.path.length : 0;
  const served = METHODS_BY_DEPTH[TUS_PATTERN]![depth];
  if (!served) return;
  const allow = allowedMethods(served);
  if (allow.includes(method)) return;
  extras.headers.set("allow", allow.join(", "));
  throw new ApiError("method_not_allowed", `${method} is not allowed here; this URL serves ${allow.join(", ")}.`, {
    allowed_methods: allow,
  });
}

const serve = async ({ req, params, requestId, ...c }: BaseCtx<unknown, unknown, unknown>) => {
  const rest = (params as { path?: string[] }).path ?? [];
  if (rest.length > 1) throw new ApiError("not_found", "No such API route.");
  if (req.method === "OPTIONS") return (await tus()).handleWeb(req);
  if (req.method !== "GET" && req.headers.get("tus-resumable") !== TUS_RESUMABLE) return versionRequired();
  const { organizationId, agent } = c as unknown as { organizationId: string; agent: AgentRow };
  // An archived agent takes no new files: creating or continuing an upload is refused (409).
  if (req.method === "POST" || req.method === "PATCH") assertNotArchived(agent);
  const uploadId = rest[0];
  const upload = uploadId ? await loadUpload({ organizationId, agentId: agent.id, uploadId }) : undefined;
  if (req.method === "GET") return uploadedFile(upload!); // an upload URL (405 above otherwise)
  // tus 1.0: "All PATCH requests MUST use Content-Type: application/offset+octet-stream, otherwise
  // the Server SHOULD return a 415". @tus/server answered 403 without one and 400 with another.
  if (req.method === "PATCH" && mediaTypeOf(req.headers.get("content-type")) !== TUS_CHUNK_TYPE) {
    throw new ApiError("unsupported_media_type", `A tus PATCH carries Content-Type: ${TUS_CHUNK_TYPE}.`);
  }
  if (req.method === "HEAD" && upload) {
    const fileId = await finishUpload(upload); // also after a crash between the last byte and the record
    if (fileId) return finishedHead(upload, fileId);
  }
  const context: TusContext = { organizationId, agentId: agent.id, requestId, uploadId: upload?.id };
  contexts.set(req, context);
  // POST (creation, perhaps with a first chunk) and PATCH carry bytes: uploads in flight (lib/metrics).
  const server = await tus();
  const carriesBytes = req.method === "PATCH" || req.method === "POST";
  const res = await withEnvelopeType(
    carriesBytes ? await trackUpload("tus", () => server.handleWeb(req)) : await server.handleWeb(req),
  );
  if (req.method === "DELETE" && upload && res.status === 204) await forgetUpload(upload.id);
  // Storage failed after the upload was recorded: without a Location nobody can continue it.
  if (req.method === "POST" && res.status >= 500 && context.created) await discardUpload(context.created);
  return res;
};
