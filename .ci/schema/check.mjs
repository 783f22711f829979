// Validates every fixtures/NAME.json against fixtures/schema/NAME.schema.json
// (JSON Schema draft 2020-12) and fails if a fixture has no schema.
import Ajv2020 from "ajv/dist/2020.js";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2] ?? "fixtures";
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
let failed = 0, checked = 0;
for (const name of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
  const base = name.replace(/\.json$/, "");
  let schema;
  try {
    schema = JSON.parse(readFileSync(join(dir, "schema", `${base}.schema.json`), "utf8"));
  } catch (e) {
    console.error(`${name}: no readable schema: ${e.message}`);
    failed++;
    continue;
  }
  let validate, data;
  try {
    validate = ajv.compile(schema);
    data = JSON.parse(readFileSync(join(dir, name), "utf8"));
  } catch (e) {
    console.error(`${name}: ${e.message}`);
    failed++;
    continue;
  }
  checked++;
  if (validate(data)) {
    console.log(`ok   ${name}`);
  } else {
    failed++;
    for (const e of validate.errors.slice(0, 20)) {
      console.error(`FAIL ${name}${e.instancePath}: ${e.message}`);
    }
  }
}
console.log(`schemas: ${checked} fixture files checked, ${failed} failed`);
process.exit(failed === 0 && checked > 0 ? 0 : 1);
