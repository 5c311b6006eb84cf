import { database } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { withPublic } from "@/lib/http/handler";
import * as contract from "./contract";

export const GET = withPublic(contract.GET, async () => {
  try {
    const db = await database();
    await db.sql.query("SELECT 1");
  } catch {
    throw new ApiError("service_unavailable", "The database does not answer.");
  }
  return { status: "ok" as const };
});
