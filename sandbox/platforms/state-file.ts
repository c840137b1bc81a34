// The platform sandbox's state file (under DATA_DIR when `npm start` runs it): the apps' credentials and keys, the
// port, and every grant and token issued, so that a restart keeps the users' connections working as a real
// platform would. Written whole after every change, to a temporary file then renamed over the old one, so a crash
// mid-write leaves the previous state rather than half a file. It holds client secrets and tokens: owner-only.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PLATFORM_NAMES, type PlatformName } from './demo-accounts.ts';
import type { AppKeys, ClientCredentials, OAuthStoreSnapshot } from './oauth-core.ts';

const isoDate = z.iso.datetime();
const platform = z.enum(PLATFORM_NAMES as readonly PlatformName[] as [PlatformName, ...PlatformName[]]);

const stateSchema = z.object({
  version: z.literal(1),
  /** Where the sandbox listened: taken again if free, so the avatar addresses stored by the app keep working. */
  port: z.number().int().min(1).max(65_535).optional(),
  credentials: z.record(platform, z.object({ clientId: z.string().min(1), clientSecret: z.string().min(1) })),
  appKeys: z.object({ youtubeApiKey: z.string().min(1), twitterBearerToken: z.string().min(1) }),
  grants: z.array(
    z.object({
      id: z.string().min(1),
      platform,
      clientId: z.string().min(1),
      accountIndex: z.number().int().min(0),
      scopes: z.array(z.string()),
      createdAt: isoDate,
      revokedAt: isoDate.optional(),
    }),
  ),
  tokens: z.array(
    z.object({
      token: z.string().min(1),
      type: z.enum(['access_token', 'refresh_token']),
      grantId: z.string().min(1),
      issuedAt: isoDate,
      expiresAt: isoDate.nullable(),
      usedAt: isoDate.optional(),
      revokedAt: isoDate.optional(),
      variant: z.string().optional(),
    }),
  ),
});

export interface SandboxState extends OAuthStoreSnapshot {
  port?: number;
  credentials: Record<PlatformName, ClientCredentials>;
  appKeys: AppKeys;
}

/** The saved state, or undefined when there is no file yet. A file that is not a state file stops the start. */
export function readSandboxState(file: string): SandboxState | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = stateSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`Platform sandbox: ${file} is not a version 1 sandbox state file; move it away to start fresh (the users will have to connect again)`);
  return parsed.data;
}

export function writeSandboxState(file: string, state: SandboxState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ version: 1, ...state }), { mode: 0o600 });
  renameSync(temporary, file);
}
