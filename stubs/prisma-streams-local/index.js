// Stands in for @prisma/streams-local: the Prisma CLI loads it only to start `prisma dev` (a local
// Prisma Postgres server, which this project does not use), and the real package requires Node 22
// while this project runs on Node 20. package.json's `overrides` puts this stub in its place; see
// docs/decisions.md, "Node 20: dependency versions".
export async function startLocalDurableStreamsServer() {
  throw new Error(
    "`prisma dev` is not available in this project: @prisma/streams-local (Node >= 22) is replaced by a stub (docs/decisions.md).",
  );
}
