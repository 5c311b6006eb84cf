// The empty Next app of bench/api.bench.ts (bench/empty-next.ts builds and starts it): the same
// next version as the service, its own build folder (never the service's NEXT_DIST_DIR).
/** @type {import('next').NextConfig} */
const nextConfig = {
  distDir: ".next",
  reactStrictMode: true,
  poweredByHeader: false,
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
