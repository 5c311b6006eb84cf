// npm run gen:client: regenerates lib/client/schema.ts from the OpenAPI document (scripts/client-types.ts).
import { writeFileSync } from "node:fs";
import { CLIENT_TYPES_FILE, generateClientTypes } from "./client-types";

writeFileSync(CLIENT_TYPES_FILE, await generateClientTypes());
console.log(`wrote ${CLIENT_TYPES_FILE}`);
