import { withConsole } from "@/lib/http/console";
import { signOutEverywhere } from "@/lib/http/sign-in";

export const POST = withConsole({}, ({ user }) => signOutEverywhere(user.userId));
