// What the peers' scripts (run.js, restore.js, lanes.js) share: the
// command-line option reader, the seeded generator that gives every peer
// the same inputs, and the loading of the peers transpiled by build.sh.
"use strict";
const path = require("path");
const fs = require("fs");

/** The value after `name` on the command line, or `fallback`. */
function option(name, fallback) {
  const args = process.argv.slice(2);
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
}

/** A seeded generator (mulberry32), so every peer gets the same inputs. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in low...high from the generator `next`. */
const int = (next, low, high) => low + Math.floor(next() * (high - low + 1));

/**
 * The modules `files` (paths inside .build-peers, e.g. "tanstack/index.js")
 * and the peers' versions; exits 2 with what to run when they are missing.
 * `who` names the script in the message.
 */
function loadPeers(who, files) {
  const built = path.resolve(__dirname, "../../.build-peers");
  try {
    const modules = files.map((file) => require(path.join(built, file)));
    const versions = JSON.parse(fs.readFileSync(path.join(built, "versions.json"), "utf8"));
    return { modules, versions };
  } catch (error) {
    console.error(`${who}: ${built} is missing or incomplete; run Benchmarks/peers/build.sh first (${error.message})`);
    process.exit(2);
  }
}

module.exports = { option, random, int, loadPeers };
