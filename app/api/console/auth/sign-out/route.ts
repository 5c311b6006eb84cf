import { withConsolePublic } from "@/lib/http/console";
import { signOutHere } from "@/lib/http/sign-in";

export const POST = withConsolePublic({}, () => signOutHere());
