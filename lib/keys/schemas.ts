import { z } from "zod";

export const PERMISSIONS = ["agents:invoke"] as const;

export const MintKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  permissions: z.array(z.enum(PERMISSIONS)).max(20).default(["agents:invoke"]),
});
export type MintKeyBody = z.infer<typeof MintKeyBody>;
