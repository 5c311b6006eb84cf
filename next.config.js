/** @type {import('next').NextConfig} */
const nextConfig = {
  // A separate build folder per checkout of parallel work (tests build and start their own server).
  distDir: process.env.NEXT_DIST_DIR || ".next",
  reactStrictMode: true,
  poweredByHeader: false,
  // Server-only packages loaded by Node at run time rather than bundled (WASM, native, workers).
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "fs-native-extensions",
    "pg-boss",
    "pino",
    "pg",
    "busboy",
    "jsonata",
    "openai",
    "undici",
    "@tus/server",
    "@tus/file-store",
    "@tus/utils",
    "prom-client",
    "nodemailer",
    "@opentelemetry/api",
    "@opentelemetry/sdk-trace-node",
    "@opentelemetry/resources",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/exporter-trace-otlp-proto",
  ],
  // `npm run check` typechecks the whole project once; the build does not repeat it.
  typescript: { ignoreBuildErrors: true },
  // PROFILE_BUILD=1 keeps the server bundle's function names readable in CPU profiles (bench/profile.ts).
  experimental: { serverMinification: process.env.PROFILE_BUILD !== "1" },
};

export default nextConfig;
