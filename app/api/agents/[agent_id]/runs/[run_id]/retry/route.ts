import { controlRoute } from "@/lib/runs/routes";

export const POST = controlRoute("retry");
