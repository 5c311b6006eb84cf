// Unknown API paths answer in the error envelope rather than with Next's HTML 404 page.
import { ApiError } from "@/lib/errors";
import { withPublic } from "@/lib/http/handler";
import * as contract from "./contract";

// One handler for every method: each method's contract says the same.
const notFound = withPublic(contract.GET, async () => {
  throw new ApiError("not_found", "No such API route.");
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
