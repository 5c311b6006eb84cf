// npm run gen:config: rewrites the configuration reference in docs/deploy.md from lib/env.ts's
// EnvSchema (scripts/config-reference.ts).
import { writeFileSync } from "node:fs";
import { CONFIG_DOC, freshConfigDoc, undescribed } from "./config-reference";

writeFileSync(CONFIG_DOC, freshConfigDoc());
console.log(`wrote the configuration reference in ${CONFIG_DOC}`);
const missing = undescribed();
if (missing.length) {
  console.warn(`warning: no description (add .describe(...) in lib/env.ts): ${missing.join(", ")}`);
  process.exitCode = 1;
}
