#!/usr/bin/env node
// The punycheck command of the npm package: runs the punycheck binary of
// the platform package npm installed beside this one, with this process's
// arguments, standard streams and environment, and ends as the binary
// ended: its exit status, or the signal that ended it.
//
// The platform packages are this package's optionalDependencies, one per
// target (@punycheck/linux-x64-gnu, ...), each with `os`, `cpu` and `libc`
// fields, so that npm, pnpm and yarn install the one that fits the machine
// and skip the others. Nothing is downloaded here and no install script
// runs. PUNYCHECK_BINARY names another binary to run instead.
"use strict";

const { spawn } = require("node:child_process");
const { constants } = require("node:os");

const { version, optionalDependencies } = require("../package.json");

// Exit status of punycheck for a usage or setup error: the binary's own
// meaning of 2, so a CI gate reads a missing binary as it reads any setup
// error.
const SETUP_ERROR = 2;

/** glibc or musl on Linux, from Node's own report of its C library. */
function libc() {
  if (process.platform !== "linux") {
    return null;
  }
  try {
    if (process.report) {
      // Only the header is read: leave out the slow parts where Node can.
      process.report.excludeNetwork = true;
      const header = process.report.getReport().header;
      return header.glibcVersionRuntime ? "gnu" : "musl";
    }
  } catch {
    // Fall through: say what cannot be told.
  }
  return "unknown-libc";
}

/** The name of the platform package for this machine, as the packages are named. */
function platformPackage() {
  const parts = [process.platform, process.arch];
  const c = libc();
  if (c) {
    parts.push(c);
  }
  if (process.platform === "win32") {
    parts.push("msvc");
  }
  return "@punycheck/" + parts.join("-");
}

function fail(lines) {
  process.stderr.write(lines.map((l) => "punycheck: " + l + "\n").join(""));
  process.exit(SETUP_ERROR);
}

/** The path of the binary to run, or an exit with what to do. */
function binary() {
  if (process.env.PUNYCHECK_BINARY) {
    return process.env.PUNYCHECK_BINARY;
  }
  const wanted = platformPackage();
  const others = [
    "install punycheck another way:",
    "  pip install punycheck                                          (a binary wheel)",
    "  cargo install --locked punycheck-cli --no-default-features     (needs Rust and a C compiler)",
    "or set PUNYCHECK_BINARY to a punycheck binary of your own.",
  ];
  if (!Object.hasOwn(optionalDependencies || {}, wanted)) {
    fail([
      `no punycheck ${version} binary is built for this platform ` +
        `(${process.platform} ${process.arch}${libc() ? " " + libc() : ""}): ` +
        `the npm packages have ${Object.keys(optionalDependencies || {}).join(", ")}.`,
      ...others,
    ]);
  }
  const exe = process.platform === "win32" ? "punycheck.exe" : "punycheck";
  try {
    return require.resolve(`${wanted}/bin/${exe}`);
  } catch {
    fail([
      `${wanted}, the package with this platform's punycheck binary, is not installed.`,
      "npm installs it as an optional dependency of punycheck: it was left out if optional",
      "dependencies were omitted (--omit=optional, --no-optional), or if package-lock.json",
      "was written on another platform. Reinstall with optional dependencies, for example",
      `  npm install --save-dev punycheck@${version} ${wanted}@${version}`,
      ...others,
    ]);
  }
}

// A signal sent to this process alone (kill PID, a CI runner's cancel)
// reaches the binary too; one sent to the whole process group reaches it
// twice, which punycheck takes as one interruption. The handlers are in
// place before the binary starts, so none is missed.
const forwarded = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
let child = null;
const forward = (signal) => {
  if (child && child.pid !== undefined) {
    try {
      child.kill(signal);
    } catch {
      // Already gone: its exit is on the way.
    }
  }
};
if (process.platform !== "win32") {
  for (const signal of forwarded) {
    process.on(signal, forward);
  }
}

child = spawn(binary(), process.argv.slice(2), { stdio: "inherit" });

child.on("error", (error) => {
  fail([`cannot run ${child.spawnfile}: ${error.message}`]);
});

child.on("exit", (code, signal) => {
  if (signal) {
    // End as the binary ended: by the same signal, with no handler of ours
    // in the way (the shell then reports 128 + its number).
    for (const s of forwarded) {
      process.removeAllListeners(s);
    }
    process.kill(process.pid, signal);
    // A signal Node ignores (SIGPIPE) leaves this process running: then
    // the shell's way of saying it.
    process.exitCode = 128 + (constants.signals[signal] || 0);
    return;
  }
  process.exit(code);
});
