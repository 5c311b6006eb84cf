import { withConsolePublic } from "@/lib/http/console";
import { signInWithPassword } from "@/lib/http/sign-in";
import * as contract from "./contract";

// The client's address is not an argument: the credentials provider reads it from the request
// (lib/http/client-ip.ts), the same way for this route and for Auth.js's own endpoint.
export const POST = withConsolePublic(contract.POST, ({ body }) => signInWithPassword(body));
