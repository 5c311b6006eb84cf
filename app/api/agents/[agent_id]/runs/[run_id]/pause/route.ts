import { controlRoute } from "../control";
import * as contract from "./contract";

export const POST = controlRoute("pause", contract.POST);
