import { orgControlRoute } from "../control";
import * as contract from "./contract";

export const POST = orgControlRoute("resume", contract.POST);
