import { controlRoute } from "@/lib/http/run-routes";

export const POST = controlRoute("retry");
