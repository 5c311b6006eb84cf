import { consoleControlRoute } from "@/lib/http/run-routes";

export const POST = consoleControlRoute("pause");
