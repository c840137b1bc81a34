// The real start-up script (server/main.ts) as a child process, for tests of what only a whole process shows: start-up
// refusals, shutdown, crash recovery, roles. Each test file keeps its own set and stops what it started.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface MainProcess {
  child: ChildProcess;
  /** The exit code once the process has ended. */
  exit: Promise<number | null>;
  /** The URL it printed when it started listening (rejects if it exits first). */
  listening: Promise<string>;
  output(): string;
  /** Resolves once the output (so far or later) matches: waits on the process's own words, never on time. */
  waitForOutput(pattern: RegExp): Promise<void>;
}

export function createMainProcesses() {
  const children: ChildProcess[] = [];
  const dataDirs: string[] = [];
  const killAll = () => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const removeDataDirs = () => {
    for (const directory of dataDirs.splice(0)) rmSync(directory, { recursive: true, force: true });
  };
  return {
    /** Starts server/main.ts with only PATH and `env` as its environment. */
    start(env: Record<string, string>): MainProcess {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const listening = new Promise<string>((resolve, reject) => {
        child.stdout!.on('data', () => {
          const match = /"url":"(http[^"]+)","sandbox"/.exec(output);
          if (match) resolve(match[1]!);
        });
        child.on('exit', () => reject(new Error(`exited before listening:\n${output}`)));
      });
      // A test that expects the process to exit before listening never awaits this.
      listening.catch(() => {});
      const waitForOutput = (pattern: RegExp) =>
        new Promise<void>((resolve, reject) => {
          const check = () => {
            if (!pattern.test(output)) return false;
            child.stdout!.off('data', check);
            resolve();
            return true;
          };
          if (check()) return;
          child.stdout!.on('data', check);
          child.on('exit', () => reject(new Error(`exited before ${pattern}:\n${output}`)));
        });
      return { child, exit, listening, output: () => output, waitForOutput };
    },
    /** A fresh data directory under the system's temporary one, removed by `removeDataDirs` or `cleanUp`. */
    dataDir(prefix = 'ah-main-'): string {
      const directory = mkdtempSync(path.join(os.tmpdir(), prefix));
      dataDirs.push(directory);
      return directory;
    },
    /** SIGKILLs what is still running (a failed test leaves its servers up). */
    killAll,
    removeDataDirs,
    /** Both, after each test: only the children and directories this set made. */
    cleanUp() {
      killAll();
      removeDataDirs();
    },
  };
}
