// Every schema module (lib/<domain>/schemas.ts, and the OpenAPI parts), made by
// `node scripts/route-table.mjs --write`: do not edit. scripts/route-table.test.ts fails when it is
// out of date. An exported schema is a component of the OpenAPI document under its export's name.
import * as s0 from "./parts";
import * as s1 from "../agents/schemas";
import * as s2 from "../alerts/schemas";
import * as s3 from "../bulk/schemas";
import * as s4 from "../callbacks/schemas";
import * as s5 from "../conversations/schemas";
import * as s6 from "../evaluations/schemas";
import * as s7 from "../exports/schemas";
import * as s8 from "../files/schemas";
import * as s9 from "../keys/schemas";
import * as s10 from "../orgs/schemas";
import * as s11 from "../retention/schemas";
import * as s12 from "../reviews/schemas";
import * as s13 from "../runs/schemas";
import * as s14 from "../search/schemas";
import * as s15 from "../secrets/schemas";
import * as s16 from "../usage/schemas";
import * as s17 from "../views/schemas";

export const SCHEMA_MODULES: readonly Record<string, unknown>[] = [
  s0,
  s1,
  s2,
  s3,
  s4,
  s5,
  s6,
  s7,
  s8,
  s9,
  s10,
  s11,
  s12,
  s13,
  s14,
  s15,
  s16,
  s17,
];
