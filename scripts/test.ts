// `npm test`: every check, in three phases whose commands run side by side, so two cores stay busy (issue 26).
//   1. what needs no database: type checks and lint (one core each, single-threaded) beside the sandbox's and the web
//      app's tests;
//   2. the server's tests: on the embedded PGlite, and, when DATABASE_URL is set, on that PostgreSQL at the same time
//      (each run makes its own databases from its own template);
//   3. the end-to-end journeys in Chromium, on PostgreSQL when DATABASE_URL is set (the faster of the two for the
//      syncs the journeys run), else on PGlite, against the web app built in phase 1 (or by .ci/run just before).
// A phase starts only when the one before passed. Each command's output is printed whole when it ends, so the log
// reads one command at a time. `.ci/run` runs this with DATABASE_URL set, which covers both databases.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface Command {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

interface Outcome {
  name: string;
  code: number | null;
  seconds: number;
  output: string;
}

const databaseUrl = process.env.DATABASE_URL || undefined;
const onPglite: NodeJS.ProcessEnv = { ...process.env };
delete onPglite.DATABASE_URL;

const npm = (name: string, args: string[], env: NodeJS.ProcessEnv = process.env): Command => ({ name, args: ['npm', ...args], env });
const vitest = (name: string, args: string[], env: NodeJS.ProcessEnv): Command => ({ name, args: ['npx', 'vitest', 'run', ...args], env });

/**
 * Server test files that run on one database only when both run: what they measure does not depend on the database
 * (the platforms' call counts, a model's calibration on the sandbox's data), and each takes over a minute of a core.
 * A file says so on a line of its own, `// @runs-once-on: postgresql` (or `pglite`), with the reason beside it. Without
 * DATABASE_URL every file runs, on PGlite.
 */
function runsOnceOn(database: 'postgresql' | 'pglite'): string[] {
  return serverTests.filter(({ text }) => new RegExp(`^// @runs-once-on: ${database}\\b`, 'm').test(text)).map(({ file }) => file);
}

/** The server's test files with their text, read once. */
const serverTests = readdirSync('server', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => path.join('server', file))
  .map((file) => ({ file, text: readFileSync(file, 'utf8') }));

/** The modules through which a test opens a database: a test server, a test database, a server process, the client. */
const DATABASE_OPENERS = new Set(['server/test/test-server.ts', 'server/test/databases.ts', 'server/test/main-process.ts', 'server/db/client.ts']);

/**
 * Server test files that never open a database (pure functions, parsers, the statistics): they import none of
 * DATABASE_OPENERS themselves, and run in the PGlite run only when both run.
 */
function opensNoDatabase(): string[] {
  const imports = (file: string, text: string) => [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((match) => path.join(path.dirname(file), match[1]!));
  return serverTests.filter(({ file, text }) => !imports(file, text).some((module) => DATABASE_OPENERS.has(module))).map(({ file }) => file);
}
const excluding = (files: string[]) => files.flatMap((file) => ['--exclude', file]);

// The journeys run against the built web app. `.ci/run` has just built it (scripts/build-release.sh, as the Dockerfile
// does) and says so; otherwise it is built in the first phase, beside the checks, instead of alone before the journeys.
const webBuilt = process.env.WEB_BUILD_FRESH === '1';

const phases: { name: string; commands: Command[] }[] = [
  {
    name: 'checks that need no database',
    commands: [
      ...(webBuilt ? [] : [npm('web build', ['run', 'build'])]),
      npm('type checks', ['run', 'typecheck']),
      npm('lint', ['run', 'lint']),
      // Two workers: the type checks and lint are over in about a minute and a half, and one worker alone left a core
      // idle for the minute and a half after.
      vitest('sandbox and web app tests', ['--project', 'sandbox', '--project', 'web', '--project', 'web-mocking', '--maxWorkers=2'], onPglite),
    ],
  },
  {
    name: databaseUrl ? "the server's tests on PGlite and on PostgreSQL" : "the server's tests on PGlite",
    commands: databaseUrl
      ? [
          // Two workers each: one each left the cores idle a sixth of the time (a PostgreSQL test waits on PostgreSQL's
          // processes), and the PGlite run, the longer, then ran on one core alone once the PostgreSQL run was over.
          // Files marked `@runs-once-on` run only on the database they name (see runsOnceOn), and files that open no
          // database only on PGlite.
          vitest('server tests on PGlite', ['--project', 'server', '--maxWorkers=2', ...excluding(runsOnceOn('postgresql'))], onPglite),
          vitest('server tests on PostgreSQL', ['--project', 'server', '--maxWorkers=2', ...excluding([...runsOnceOn('pglite'), ...opensNoDatabase()])], { ...process.env, DATABASE_URL: databaseUrl }),
        ]
      : [vitest('server tests on PGlite', ['--project', 'server'], onPglite)],
  },
  {
    name: `end-to-end journeys in Chromium on ${databaseUrl ? 'PostgreSQL' : 'PGlite'}`,
    commands: [{ name: 'end-to-end journeys', args: ['npx', 'playwright', 'test'], env: process.env }],
  },
];

const started = performance.now();
const elapsed = (since: number) => Math.round((performance.now() - since) / 1000);

function run(command: Command): Promise<Outcome> {
  const commandStarted = performance.now();
  return new Promise((resolve) => {
    const [program, ...args] = command.args;
    // Output goes to a pipe, so the tools print no colours (FORCE_COLOR in the environment, even '0', would turn them on).
    const child = spawn(program!, args, { env: command.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    // Ctrl-C or a CI stop ends the children too.
    const stop = () => child.kill('SIGTERM');
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    child.on('close', (code) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      const seconds = elapsed(commandStarted);
      process.stdout.write(`\n== ${command.name}: ${command.args.join(' ')}\n`);
      process.stdout.write(Buffer.concat(output));
      process.stdout.write(`== ${command.name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds} s\n`);
      resolve({ name: command.name, code, seconds, output: Buffer.concat(output).toString('utf8') });
    });
  });
}

/**
 * The lines that name what failed: Vitest's `FAIL  file > test` headers and Playwright's `[chromium] › file:line › test`
 * ones, each with the first line of its error; the output's last lines when it names none (a crash, a type error).
 */
function failureLines(output: string, limit = 24): string[] {
  const lines = output.split('\n').map((line) => line.replace(/\x1b\[[0-9;]*m/g, '').trimEnd());
  const named: string[] = [];
  const seen = new Set<string>();
  lines.forEach((line, index) => {
    if (!/^\s*(FAIL\s|\d+\) \[chromium\]|\[chromium\] ›)/.test(line) || seen.has(line.trim())) return;
    seen.add(line.trim());
    named.push(line);
    const error = lines.slice(index + 1, index + 12).find((next) => /(Error|expected|Timed out|timeout)/i.test(next));
    if (error) named.push(`    ${error.trim()}`);
  });
  const chosen = named.length > 0 ? named : lines.filter((line) => line.trim() !== '').slice(-limit);
  return chosen.slice(0, limit);
}

const outcomes: Outcome[] = [];
let failed = false;
for (const phase of phases) {
  const phaseStarted = performance.now();
  process.stdout.write(`\n== [${elapsed(started)} s] ${phase.name}: ${phase.commands.map((command) => command.name).join(', ')}, side by side\n`);
  const results = await Promise.all(phase.commands.map(run));
  outcomes.push(...results);
  process.stdout.write(`== [${elapsed(started)} s] ${phase.name}: ${elapsed(phaseStarted)} s\n`);
  if (results.some((result) => result.code !== 0)) {
    failed = true;
    break;
  }
}

process.stdout.write(`\n== npm test ${failed ? 'FAILED' : 'passed'} in ${elapsed(started)} s\n`);
for (const outcome of outcomes) process.stdout.write(`   ${outcome.code === 0 ? 'passed' : 'FAILED'}  ${String(outcome.seconds).padStart(5)} s  ${outcome.name}\n`);
// A CI log is often read from its end only, and the commands of a phase print in the order they end, so a failure
// printed first would sit above another command's whole output: what failed is said again here, last.
for (const outcome of outcomes.filter((each) => each.code !== 0)) {
  process.stdout.write(`\n== what failed in ${outcome.name}:\n${failureLines(outcome.output).join('\n')}\n`);
}
process.exit(failed ? 1 : 0);
