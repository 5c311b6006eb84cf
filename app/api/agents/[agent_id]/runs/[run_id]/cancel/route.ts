import { controlRoute } from "../control";
import * as contract from "./contract";

export const POST = controlRoute("cancel", contract.POST);
