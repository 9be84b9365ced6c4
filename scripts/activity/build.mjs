// Bundles the Activity's script (src/activity.js and Discord's Embedded App SDK, from
// the lockfile's versions) into the web package's static files: nothing is fetched
// from a CDN when the page runs. `node build.mjs --check` builds in memory and fails
// if the committed bundle differs (CI: the bundle is what the lockfile builds).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "..", "bot", "web", "static", "activity.js");
const check = process.argv.includes("--check");

const result = await build({
  entryPoints: [join(here, "src", "activity.js")],
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  legalComments: "eof",
  banner: {
    js: "/* The Montana Activity: scripts/activity/src/activity.js with @discord/embedded-app-sdk" +
      " (MIT, Discord Inc.) and its dependencies, bundled by scripts/activity/build.mjs */",
  },
  write: false,
  outfile: out,
  logLevel: "warning",
});
const text = result.outputFiles[0].text;
if (check) {
  let committed = "";
  try {
    committed = readFileSync(out, "utf8");
  } catch {
    // missing: reported below
  }
  if (committed !== text) {
    console.error(`${out} is not what the lockfile builds: run scripts/activity/build.sh`);
    process.exit(1);
  }
  console.log(`${out} matches the lockfile's build`);
} else {
  writeFileSync(out, text);
  console.log(`wrote ${out} (${text.length} bytes)`);
}
