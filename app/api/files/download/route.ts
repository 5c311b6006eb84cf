// Signed download links (lib/files/signing): the token is the credential, so no Authorization.
import { downloadFile } from "@/lib/files/download";
import { withPublic } from "@/lib/http/handler";
import * as contract from "./contract";

export const GET = withPublic(contract.GET, ({ req, query }) =>
  downloadFile({ token: query.token, range: req.headers.get("range") }),
);
