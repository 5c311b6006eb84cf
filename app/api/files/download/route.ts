// Signed download links (lib/files/signing): the token is the credential, so no Authorization.
import { z } from "zod";
import { downloadFile } from "@/lib/files/download";
import { withPublic } from "@/lib/http/handler";

const Query = z.object({ token: z.string().min(1) });

export const GET = withPublic({ query: Query }, ({ req, query }) =>
  downloadFile({ token: query.token, range: req.headers.get("range") }),
);
