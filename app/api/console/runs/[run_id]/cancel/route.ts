import { consoleControlRoute } from "@/lib/http/run-routes";
import * as contract from "./contract";

export const POST = consoleControlRoute("cancel", contract.POST);
