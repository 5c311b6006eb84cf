/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Server-only packages loaded by Node at run time rather than bundled (WASM, native, workers).
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "pg-boss",
    "pino",
    "pg",
    "busboy",
    "jsonata",
    "openai",
  ],
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
