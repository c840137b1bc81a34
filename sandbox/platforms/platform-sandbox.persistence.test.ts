// A sandbox started with a state file (as `npm start` starts it, under DATA_DIR) keeps its credentials, port, grants
// and tokens across restarts, so restarting never means connecting again; it stays as strict as the real APIs and
// accepts no token it did not issue. Without a state file everything lives in memory, as before.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlatformSandbox } from './platform-sandbox.ts';
import { authorizeUrl, bearer, callbackParams, pkcePair, redirectUriFor, startTestSandbox, type TestSandbox } from './test-helpers.ts';

/**
 * One request on a connection of its own. A restarted sandbox listens on the same port, and fetch's pool would hand
 * out a keep-alive socket of the sandbox that was closed.
 */
function send(url: string, init: { method?: string; headers?: Record<string, string>; form?: Record<string, string> } = {}): Promise<{ status: number; body: any }> {
  const body = init.form ? new URLSearchParams(init.form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: init.method ?? 'GET', agent: false, headers: { ...init.headers, ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
    });
    request.on('error', reject);
    request.end(body);
  });
}
const get = (url: string, headers: Record<string, string>) => send(url, { headers });
const postForm = (url: string, form: Record<string, string>) => send(url, { method: 'POST', form });

const TOKEN_URL = 'https://open.tiktokapis.com/v2/oauth/token/';
const USER_INFO_URL = 'https://open.tiktokapis.com/v2/user/info/?fields=open_id,display_name';

const directories: string[] = [];
const running: TestSandbox[] = [];
afterEach(async () => {
  for (const sandbox of running.splice(0)) await sandbox.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

async function start(stateFile?: string) {
  const context = await startTestSandbox(stateFile ? { stateFile } : {});
  running.push(context);
  return context;
}

async function stop(context: TestSandbox) {
  running.splice(running.indexOf(context), 1);
  await context.close();
}

function stateFileIn() {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'ah-platform-sandbox-'));
  directories.push(directory);
  return path.join(directory, 'data', 'platform-sandbox.json');
}

/**
 * TikTok's consent and code exchange, as the product does them from a desktop (http) redirect URI, with a hex S256
 * challenge: the access and refresh tokens.
 */
async function connectTiktok(sandbox: PlatformSandbox) {
  const { clientId, clientSecret } = sandbox.credentials.tiktok;
  const { verifier, challenge } = pkcePair('hex');
  const url = authorizeUrl(sandbox, 'https://www.tiktok.com/v2/auth/authorize/', {
    client_key: clientId,
    response_type: 'code',
    scope: 'user.info.basic,user.info.stats,video.list',
    redirect_uri: redirectUriFor('tiktok'),
    state: 'persist-state',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const code = callbackParams((await sandbox.authorize(url, { account: 1 })).redirectUrl).get('code')!;
  const answer = await postForm(sandbox.url(TOKEN_URL), { client_key: clientId, client_secret: clientSecret, grant_type: 'authorization_code', code, redirect_uri: redirectUriFor('tiktok'), code_verifier: verifier });
  expect(answer.status).toBe(200);
  return { accessToken: answer.body.access_token as string, refreshToken: answer.body.refresh_token as string };
}

const refresh = (sandbox: PlatformSandbox, refreshToken: string) =>
  postForm(sandbox.url(TOKEN_URL), { client_key: sandbox.credentials.tiktok.clientId, client_secret: sandbox.credentials.tiktok.clientSecret, grant_type: 'refresh_token', refresh_token: refreshToken });

describe('the platform sandbox across restarts', () => {
  it('reloads its credentials, port, grants and tokens from the state file: the connection keeps working', async () => {
    const stateFile = stateFileIn();
    const first = await start(stateFile);
    const tokens = await connectTiktok(first.sandbox);
    const credentials = first.sandbox.credentials;
    const appKeys = first.sandbox.appKeys;
    const baseUrl = first.sandbox.baseUrl;
    await stop(first);
    // Secrets and tokens: readable by the owner only.
    expect(statSync(stateFile).mode & 0o077).toBe(0);

    const second = await start(stateFile);
    expect(second.sandbox.credentials).toEqual(credentials);
    expect(second.sandbox.appKeys).toEqual(appKeys);
    expect(second.sandbox.baseUrl).toBe(baseUrl);
    expect((await get(second.sandbox.url(USER_INFO_URL), bearer(tokens.accessToken))).status).toBe(200);
    // The refresh token issued before the restart is accepted once (TikTok rotates it)...
    const renewed = await refresh(second.sandbox, tokens.refreshToken);
    expect(renewed.status).toBe(200);
    await stop(second);

    // ...and its spending is remembered too: presented again after another restart, it is a replay, and the whole
    // family is revoked, as at TikTok.
    const third = await start(stateFile);
    expect((await get(third.sandbox.url(USER_INFO_URL), bearer(renewed.body.access_token))).status).toBe(200);
    expect((await refresh(third.sandbox, tokens.refreshToken)).status).toBe(400);
    expect((await get(third.sandbox.url(USER_INFO_URL), bearer(renewed.body.access_token))).status).toBe(401);
    expect((await refresh(third.sandbox, renewed.body.refresh_token)).status).toBe(400);
  });

  it('accepts no token it did not issue: not one from another sandbox, not one written into the file by hand', async () => {
    const stateFile = stateFileIn();
    const persisted = await start(stateFile);
    await connectTiktok(persisted.sandbox);
    const elsewhere = await start();
    const foreign = await connectTiktok(elsewhere.sandbox);
    expect((await get(persisted.sandbox.url(USER_INFO_URL), bearer(foreign.accessToken))).status).toBe(401);
    await stop(persisted);

    // A token edited into the file without a grant that issued it is dropped on load.
    const state = JSON.parse(readFileSync(stateFile, 'utf8'));
    state.tokens.push({ ...state.tokens[0], token: 'act.sbx-forged', grantId: 'grant_nobody' });
    writeFileSync(stateFile, JSON.stringify(state));
    const reloaded = await start(stateFile);
    expect((await get(reloaded.sandbox.url(USER_INFO_URL), bearer('act.sbx-forged'))).status).toBe(401);
    expect((await get(reloaded.sandbox.url(USER_INFO_URL), bearer(foreign.accessToken))).status).toBe(401);
  });

  it('refuses to start on a file that is not its state, rather than forgetting every connection silently', async () => {
    const stateFile = stateFileIn();
    const first = await start(stateFile);
    await stop(first);
    writeFileSync(stateFile, JSON.stringify({ version: 2 }));
    await expect(start(stateFile)).rejects.toThrow(/not a version 1 sandbox state file/);
  });

  it('without a state file, keeps everything in memory: a restart is a new platform', async () => {
    const first = await start();
    const tokens = await connectTiktok(first.sandbox);
    const credentials = first.sandbox.credentials;
    await stop(first);
    const second = await start();
    expect(second.sandbox.credentials).not.toEqual(credentials);
    expect((await get(second.sandbox.url(USER_INFO_URL), bearer(tokens.accessToken))).status).toBe(401);
  });
});
