import { controlRoute } from "@/lib/http/run-routes";
import * as contract from "./contract";

export const POST = controlRoute("cancel", contract.POST);
