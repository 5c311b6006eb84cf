// Readiness: 200 when the database answers and the queue is started, else 503 (lib/readiness.ts).
import { withPublic } from "@/lib/http/handler";
import { readiness } from "@/lib/readiness";
import * as contract from "./contract";

export const GET = withPublic(contract.GET, async () => readiness());
