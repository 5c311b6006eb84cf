// Sizes for people: 1 KB = 1024 bytes, one decimal below 10 units.
const UNITS = ["bytes", "KB", "MB", "GB", "TB"];

export function formatBytes(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return "—";
  if (n < 1024) return `${n} ${n === 1 ? "byte" : "bytes"}`;
  let v = n;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${UNITS[u]}`;
}
