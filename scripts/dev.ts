// `npm run dev`: the API with reload on change (port 3001) and Vite's dev server with hot module
// replacement (port 3000, proxying /api and /sandbox to the API). Ctrl-C stops both.
import { type ChildProcess, spawn } from 'node:child_process';

const children: ChildProcess[] = [
  spawn(process.execPath, ['--watch', '--import', 'tsx', 'server/main.ts'], {
    stdio: 'inherit',
    // No load balancer in development: close at once on Ctrl-C instead of draining.
    env: { ...process.env, PORT: '3001', PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:3000', SHUTDOWN_DRAIN_MS: process.env.SHUTDOWN_DRAIN_MS ?? '0' },
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], { stdio: 'inherit', env: process.env }),
];

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => {
  stop();
  process.exitCode = code ?? 0;
});
