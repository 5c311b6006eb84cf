import pg from "pg";
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./unavailable";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it("recognises a database that is down, restarting, or cut the connection", () => {
    expect(isDatabaseUnavailable(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("the database system is starting up", "57P03"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("terminating connection due to administrator command", "57P01"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("connection failure", "08006"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    // Prisma with the driver adapter: P1001, or P2010 carrying the adapter's cause.
    expect(isDatabaseUnavailable(withCode("Can't reach database server", "P1001"))).toBe(true);
    const p2010 = Object.assign(withCode("Raw query failed", "P2010"), {
      meta: { driverAdapterError: { cause: { kind: "postgres", code: "57P03" } } },
    });
    expect(isDatabaseUnavailable(p2010)).toBe(true);
    const unreachable = Object.assign(withCode("Raw query failed", "P2010"), {
      meta: { driverAdapterError: { cause: { kind: "DatabaseNotReachable" } } },
    });
    expect(isDatabaseUnavailable(unreachable)).toBe(true);
    // A connection reset by a server going down mid-query (seen in the PostgreSQL restart test).
    const closed = Object.assign(withCode("Raw query failed. Message: `Server has closed the connection.`", "P2010"), {
      meta: { driverAdapterError: { cause: { kind: "ConnectionClosed" } } },
    });
    expect(isDatabaseUnavailable(closed)).toBe(true);
    expect(isDatabaseUnavailable(new Error("wrapped", { cause: withCode("x", "ECONNREFUSED") }))).toBe(true);
  });

  it("leaves errors of the query or the code alone", () => {
    expect(isDatabaseUnavailable(withCode("duplicate key value", "23505"))).toBe(false);
    expect(isDatabaseUnavailable(withCode("Unique constraint failed", "P2002"))).toBe(false);
    const p2010 = Object.assign(withCode("Raw query failed", "P2010"), {
      meta: { driverAdapterError: { cause: { kind: "postgres", code: "42P01" } } },
    });
    expect(isDatabaseUnavailable(p2010)).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
  });

  it("recognises what node-postgres throws for a server that is not there", async () => {
    const client = new pg.Client({ connectionString: "postgres://postgres@127.0.0.1:1/postgres" });
    const err = await client.connect().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isDatabaseUnavailable(err)).toBe(true);
  });
});
