// Resumable uploads (tus 1.0): no proxy or middleware may match this path, since Next buffers
// bodies there (docs/decisions.md). lib/http/tus.ts says what happens.
import { tusRoute } from "@/lib/http/tus";

export {
  tusRoute as GET,
  tusRoute as HEAD,
  tusRoute as POST,
  tusRoute as PATCH,
  tusRoute as DELETE,
  tusRoute as OPTIONS,
};
