// Next.js start-up hook: the server process opens the database and starts the worker before it
// serves requests.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { boot } = await import("./lib/boot");
    await boot();
  }
}
