import { withConsolePublic } from "@/lib/http/console";
import { signOutHere } from "@/lib/http/sign-in";
import * as contract from "./contract";

export const POST = withConsolePublic(contract.POST, () => signOutHere());
