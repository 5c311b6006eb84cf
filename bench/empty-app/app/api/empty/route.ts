// The empty route handler: what Next itself costs per request, with no work behind it.
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ ok: true });
}
