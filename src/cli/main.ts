#!/usr/bin/env node
// The `headless-auth` admin CLI. A plain module: bin/headless-auth.js runs it
// through tsx, and a compiled build can be run directly.
import { buildProgram } from './program.js';

await (await buildProgram(process.argv.slice(2))).parseAsync(process.argv);
