// Resumable uploads (tus 1.0): no proxy or middleware may match this path, since Next buffers
// bodies there (docs/decisions.md). ./tus.ts says what happens; each method takes its contract.
import { tusRoute } from "./tus";
import * as contract from "./contract";

export const GET = tusRoute(contract.GET);
export const HEAD = tusRoute(contract.HEAD);
export const POST = tusRoute(contract.POST);
export const PATCH = tusRoute(contract.PATCH);
export const DELETE = tusRoute(contract.DELETE);
export const OPTIONS = tusRoute(contract.OPTIONS);
