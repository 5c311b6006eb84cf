// The one error taxonomy: a machine code, the HTTP status it maps to, a message that is safe to
// show to callers, and optional details (field errors, ids). Services throw ApiError; the HTTP
// layer renders it in the envelope {"error": {code, message, request_id, doc_url, details}}.

export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_request: 400,
  invalid_status: 400,
  invalid_resolution: 400,
  runtime_not_applicable: 400,
  missing_file: 400,
  empty_file: 400,
  file_not_found: 400,
  invalid_callback_url: 400,
  invalid_agent: 400,
  invalid_agent_version: 400,
  search_query_too_long: 400,
  empty_source: 400,
  invalid_check: 400,
  invalid_search_field: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  access_key_expired: 401,
  forbidden: 403,
  invitation_email_mismatch: 403,
  cross_site_request: 403,
  invalid_signature: 403,
  url_expired: 403,
  not_found: 404,
  organization_not_found: 404,
  agent_not_found: 404,
  access_key_not_found: 404,
  session_not_found: 404,
  message_not_found: 404,
  run_not_found: 404,
  approval_not_found: 404,
  member_not_found: 404,
  upload_not_found: 404,
  delivery_not_found: 404,
  secret_not_found: 404,
  invitation_not_found: 404,
  bulk_action_not_found: 404,
  export_not_found: 404,
  view_not_found: 404,
  alert_rule_not_found: 404,
  agent_version_not_found: 404,
  evaluation_not_found: 404,
  evaluation_case_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  invalid_state_transition: 409,
  idempotency_conflict: 409,
  last_admin: 409,
  too_many_views: 409,
  too_many_alert_rules: 409,
  agent_archived: 409,
  secret_in_use: 409,
  upload_incomplete: 409,
  account_exists: 409,
  selection_changed: 409,
  approval_claimed: 409,
  access_key_rolled: 409,
  access_key_revoked: 409,
  access_key_expired_for_good: 409,
  draft_conflict: 409,
  nothing_to_publish: 409,
  rollout_in_progress: 409,
  no_rollout: 409,
  nothing_to_roll_back: 409,
  version_is_draft: 409,
  invitation_expired: 410,
  export_not_ready: 409,
  evaluation_finished: 409,
  export_expired: 410,
  request_timeout: 408,
  payload_too_large: 413,
  range_not_satisfiable: 416,
  headers_too_large: 431,
  unsupported_media_type: 415,
  search_too_broad: 422,
  rate_limited: 429,
  too_many_evaluations: 429,
  internal_error: 500,
  upload_failed: 500,
  upstream_timeout: 502,
  upstream_error: 502,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Where a code is documented, as every error answer names it (`doc_url`): its row of the errors table
 * in the API reference (/docs/api), relative to the service's address.
 */
export const errorDocUrl = (code: ErrorCode) => `/docs/api#error-${code}`;

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/**
 * The client went away before its request was read (a disconnect mid-body). Nobody is left to
 * answer: the HTTP layer logs it as a client abort (warn, status 499 as nginx logs it), not as an
 * error of the service.
 */
export class ClientAbortError extends Error {
  constructor(message = "The client disconnected before the request was complete.") {
    super(message);
    this.name = "ClientAbortError";
  }
}
