import { orgControlRoute } from "@/lib/http/run-routes";
import * as contract from "./contract";

export const POST = orgControlRoute("resume", contract.POST);
