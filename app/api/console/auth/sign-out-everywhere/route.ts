import { withConsole } from "@/lib/http/console";
import { signOutEverywhere } from "@/lib/http/sign-in";
import * as contract from "./contract";

export const POST = withConsole(contract.POST, ({ user }) => signOutEverywhere(user.userId));
